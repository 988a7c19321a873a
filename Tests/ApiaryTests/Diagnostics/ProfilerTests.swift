import Testing

@testable import ApiaryLifecycle

@Suite struct ProfilerTests {
  @Test func recordsNothingUntilAsked() {
    let profiler = Profiler()
    profiler.record(subject: "a", phase: .event, duration: .milliseconds(1))
    #expect(profiler.recorded.isEmpty)
    profiler.isRecording = true
    profiler.record(subject: "a", phase: .event, duration: .milliseconds(1))
    #expect(profiler.recorded.count == 1)
  }

  @Test func keepsOneAggregatePerSubjectAndPhase() {
    let profiler = Profiler(recording: true)
    for milliseconds in [3, 1, 2] {
      profiler.record(subject: "saved", phase: .event, duration: .milliseconds(milliseconds))
    }
    profiler.record(subject: "store", phase: .start, duration: .milliseconds(5))
    let entries = profiler.recorded
    #expect(entries.map(\.subject) == ["saved", "store"])
    #expect(entries[0].count == 3)
    #expect(entries[0].total == .milliseconds(6))
    #expect(entries[0].slowest == .milliseconds(3))
    #expect(profiler.slowestFirst.map(\.subject) == ["store", "saved"])
    #expect(profiler.json().contains(#""subject":"saved","phase":"event","count":3"#))
  }

  @Test func subjectsPastTheLimitAreAddedUpAsOther() {
    let profiler = Profiler(recording: true)
    for index in 0..<(Profiler.subjectLimit + 500) {
      profiler.record(subject: "event\(index)", phase: .event, duration: .microseconds(1))
    }
    let entries = profiler.recorded
    #expect(entries.count == Profiler.subjectLimit + 1)
    #expect(entries.last?.subject == "(other)")
    #expect(entries.last?.count == 500)
  }
}
