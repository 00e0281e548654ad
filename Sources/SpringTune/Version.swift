public enum SpringTuneVersion { public static let current = "0.1.0" }
