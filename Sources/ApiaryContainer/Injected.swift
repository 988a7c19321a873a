@_spi(Reflection) import Swift

/// A property filled by the container, for classes that cannot take their dependencies in an
/// initializer. ``Resolving/inject(into:)`` fills it (manifest services are injected
/// automatically after `init(resolver:)`).
///
/// ```swift
/// final class NotesController {
///   @Injected var store: any NoteStore
///   @Injected(name: "audit") var log: any Logger
/// }
/// let controller = NotesController()
/// try context.container.inject(into: controller)
/// ```
///
/// Reading the property before it is injected is a programming error and stops the program
/// with a message naming the type.
@propertyWrapper
public struct Injected<T>: InjectedProperty {
  private let slot = Slot()
  private let name: String?

  public init(name: String? = nil) {
    self.name = name
  }

  public var wrappedValue: T {
    guard let value = slot.value else {
      // Input cannot reach this: no manifest, URL or parameter value reads a property. Every
      // path that hands an object out — manifest services, `make(_:)` — fills its `@Injected`
      // properties first or throws a typed `ContainerError`; properties that point at each
      // other, even between singletons, are a typed cycle, not an object handed out half
      // filled (ContainerCycleTests). Only the object's own code,
      // reading the property before `inject(into:)` (for example inside `init(resolver:)`), gets
      // here: a programming error, and a property wrapper's getter cannot throw. A plugin with
      // that bug crashes like any trap in its code; `"placement": "process"` contains it.
      fatalError(  // proof above: only the owning object's own code can reach this
        "@Injected \(ServiceKey(T.self, name: name)) read before injection: call "
          + "container.inject(into:) first")
    }
    return value
  }

  /// Whether the container has filled the property.
  public var projectedValue: Bool { slot.value != nil }

  func inject(from resolver: Resolver) throws(ContainerError) {
    slot.value = try resolver.resolve(T.self, name: name)
  }

  /// Reference storage, so the injector can fill the property through a copy of it.
  private final class Slot {
    var value: T?
  }
}

/// A property the injector fills; implemented by ``Injected``.
protocol InjectedProperty {
  func inject(from resolver: Resolver) throws(ContainerError)
}

/// Calls `body` with the name and value of each ``Injected`` property stored in `object` (its
/// superclasses' too), in declaration order, until `body` returns false.
///
/// The runtime's field list, not a `Mirror`: a mirror asks the runtime about a dozen
/// conformances (`CustomReflectable`, the collections of its children), and each first question
/// searches every conformance in the process (BENCHMARKS.md, "Start of an `apiary` command").
/// Only the fields property wrappers keep (structs named `_property`) are asked whether they are
/// injected.
func forEachInjectedProperty(
  of object: AnyObject, _ body: (_ name: String, _ property: any InjectedProperty) -> Bool
) {
  let address = UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
  // `.classType`, by its value: the option is a `static var`, which Swift 6 refuses to read.
  let classType = _EachFieldOptions(rawValue: 1 << 0)
  _forEachField(of: type(of: object), options: classType) { name, offset, type, kind in
    guard kind == .struct, name.pointee == 0x5F,  // "_"
      let injected = type as? any InjectedProperty.Type
    else { return true }
    func load<Property: InjectedProperty>(_: Property.Type) -> Property {
      (address + offset).load(as: Property.self)
    }
    return body(String(cString: name + 1), load(injected))
  }
}
