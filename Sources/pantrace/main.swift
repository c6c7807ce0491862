import PanTraceCLI

PanTraceCommand.runAsTool()
