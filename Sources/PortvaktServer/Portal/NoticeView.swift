import PortvaktHTTP

/// What `problem` and `notice` read: a heading, a message, and a way on besides the start page.
/// Every page that says what went wrong (or what was done) and leads on uses it.
struct NoticeView: PageValues {
    let heading: String
    /// Shown by `problem`; `notice` says it in the layout's live region (``PortalPage/Frame/status``).
    let message: String
    /// nil: only the link to the start page.
    let action: Action?

    /// A button to where the reader can go on.
    struct Action: PageValues {
        let href: String
        let label: String
    }
}
