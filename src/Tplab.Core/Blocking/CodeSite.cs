namespace Tplab.Blocking;

/// <summary>
/// A place in a method's IL: the module file the process loaded, the method's metadata token and the IL offset (-1 when
/// the runtime's IL-to-native map did not say). From a frame, the offset is that of the call the frame is in.
/// </summary>
public readonly record struct CodeSite(string ModulePath, int Token, int Offset);
