import ArgumentParser
import PanTraceCLI

PanTraceCommand.main()
