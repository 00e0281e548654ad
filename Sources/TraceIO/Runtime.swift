// ToolError (the sysexits codes), Cleanup (SIGINT/SIGTERM) and Subprocess (the one spawn
// helper) live in the ToolRuntime module, not in the trace module. TraceIO re-exports it so
// that the many files (in SpringTune, the command line and the tests) that reach these names
// through `import TraceIO` keep compiling unchanged while the code is being reorganised; new
// code should `import ToolRuntime` where it uses them.
@_exported import ToolRuntime
