import PanTraceCLI

await PanTraceCommand.runAsTool()
