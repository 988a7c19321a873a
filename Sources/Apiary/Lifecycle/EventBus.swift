// STUB — replaced by the kernel work.
public final class EventBus: Sendable {}
