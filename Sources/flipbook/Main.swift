import FlipbookCLI

/// The `flipbook` executable: everything lives in FlipbookCLI.
@main
enum Main {
    static func main() {
        FlipbookCommand.main()
    }
}
