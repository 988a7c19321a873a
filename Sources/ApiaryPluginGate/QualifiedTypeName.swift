#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whether a type's qualified name, as `_typeName(type, qualified: true)` prints it
/// (`NotesPlugin.NotesModule`), is a given name: how the host checks the types a plugin's entry
/// exports against its descriptor.
///
/// For a class, struct or enum that is not generic and is nested only in such types and its
/// module, the name is read from the type's context descriptors (their names and parents, laid
/// out as docs/ABI/TypeMetadata.rst in the Swift repository describes) and compared in place.
/// `_typeName` builds a demangling tree and prints it, about 5 µs per type when a plugin loads
/// (BENCHMARKS.md, "Plugins"). Any other type is compared by `_typeName`.
///
/// ```swift
/// final class NotesModule {}
/// QualifiedTypeName.matches(NotesModule.self, "NotesPlugin.NotesModule")  // in NotesPlugin
/// ```
package enum QualifiedTypeName {
  /// Whether `_typeName(type, qualified: true) == name`.
  package static func matches(_ type: Any.Type, _ name: String) -> Bool {
    if let answer = quickMatch(type, name) { return answer }
    return _typeName(type, qualified: true) == name
  }

  /// The answer from the context descriptors, or nil when `type` is not of the kind they name
  /// exactly (generic, private, local, imported from C, not nominal).
  static func quickMatch(_ type: Any.Type, _ name: String) -> Bool? {
    guard var context = typeContextDescriptor(type) else { return nil }
    var name = name
    return name.withUTF8 { bytes -> Bool? in
      guard let base = bytes.baseAddress else { return nil }
      var end = bytes.count  // bytes[..<end] are still to match, from the innermost name out
      var equal = true
      while true {
        let flags = context.load(as: UInt32.self)
        guard flags & genericFlag == 0 else { return nil }
        let part = context + 8 + Int(context.load(fromByteOffset: 8, as: Int32.self))
        let length = strlen(part)
        switch flags & kindMask {
        case moduleKind:
          return equal && end == length && memcmp(base, part, length) == 0
        case classKind, structKind, enumKind:
          guard flags & importInfoFlag == 0 else { return nil }
          equal =
            equal && end > length && base[end - length - 1] == 0x2e  // "."
            && memcmp(base + end - length, part, length) == 0
          end -= equal ? length + 1 : 0
          guard let parent = parent(of: context) else { return nil }
          context = parent
        default:
          return nil  // an extension, anonymous (private, local) or other context
        }
      }
    }
  }

  // `ContextDescriptorFlags` and `TypeContextDescriptorFlags` (the runtime's Metadata.h).
  private static let kindMask: UInt32 = 0x1f
  private static let moduleKind: UInt32 = 0
  private static let classKind: UInt32 = 16
  private static let structKind: UInt32 = 17
  private static let enumKind: UInt32 = 18
  private static let genericFlag: UInt32 = 0x80
  private static let importInfoFlag: UInt32 = 1 << (16 + 2)

  /// The parent context: a nullable relative indirectable pointer at offset 4 (an odd offset
  /// points at a pointer to it).
  private static func parent(of context: UnsafeRawPointer) -> UnsafeRawPointer? {
    let offset = Int(context.load(fromByteOffset: 4, as: Int32.self))
    guard offset != 0 else { return nil }
    let target = context + 4 + (offset & ~1)
    return offset & 1 == 0 ? target : target.load(as: UnsafeRawPointer?.self)
  }
}

/// The runtime's `swift_getTypeContextDescriptor`: a class's, struct's or enum's nominal type
/// descriptor, nil for other metadata. Declared as the standard library declares its own runtime
/// entry points (`swift_getTypeName` for `_typeName`).
@_silgen_name("swift_getTypeContextDescriptor")
private func typeContextDescriptor(_ type: Any.Type) -> UnsafeRawPointer?
