enum PluginScaffold { static func write(name: String, to: String) -> Int32 { 1 } }
