@_exported public import CountdownCore
