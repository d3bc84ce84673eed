// What every test of the tool imports: the package root and golden files, and the test flows.
@_exported import FlowGen
@_exported import TestSupport
