/// Names of the custom events the sample application posts.
public enum NoteEvents {
  /// Posted by `notes` after a note is created; payload `note: Note`.
  public static let saved = "note.saved"
  /// Posted by `notes` after a note is deleted; payload `id: Int`.
  public static let deleted = "note.deleted"
}
