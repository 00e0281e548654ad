@_exported import SpringCore
