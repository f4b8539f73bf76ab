import PortvaktHTTP

/// Every page template (`Resources/Templates/*.mustache`, Mustache with one layout, `layout`, that
/// each page extends). Values are HTML-escaped unless a template says otherwise (only the other
/// device's QR code, the server's own SVG). Texts come from `t` (``PortalText``).
enum PortalTemplates {
    static let all: [(name: String, text: String)] = [
        ("account", EmbeddedFile.text(PackageResources.account_mustache)),
        ("admin_audit", EmbeddedFile.text(PackageResources.admin_audit_mustache)),
        ("admin_deliveries", EmbeddedFile.text(PackageResources.admin_deliveries_mustache)),
        ("admin_home", EmbeddedFile.text(PackageResources.admin_home_mustache)),
        ("admin_member", EmbeddedFile.text(PackageResources.admin_member_mustache)),
        ("admin_members", EmbeddedFile.text(PackageResources.admin_members_mustache)),
        ("admin_merge", EmbeddedFile.text(PackageResources.admin_merge_mustache)),
        ("admin_merge_done", EmbeddedFile.text(PackageResources.admin_merge_done_mustache)),
        ("admin_merge_preview", EmbeddedFile.text(PackageResources.admin_merge_preview_mustache)),
        ("admin_nav", EmbeddedFile.text(PackageResources.admin_nav_mustache)),
        ("admin_overview", EmbeddedFile.text(PackageResources.admin_overview_mustache)),
        ("admin_paging", EmbeddedFile.text(PackageResources.admin_paging_mustache)),
        ("admin_step_up", EmbeddedFile.text(PackageResources.admin_step_up_mustache)),
        ("admin_sync", EmbeddedFile.text(PackageResources.admin_sync_mustache)),
        ("admin_sync_entry", EmbeddedFile.text(PackageResources.admin_sync_entry_mustache)),
        ("broker_logged_out", EmbeddedFile.text(PackageResources.broker_logged_out_mustache)),
        ("broker_methods", EmbeddedFile.text(PackageResources.broker_methods_mustache)),
        ("broker_other_device", EmbeddedFile.text(PackageResources.broker_other_device_mustache)),
        ("broker_passkey", EmbeddedFile.text(PackageResources.broker_passkey_mustache)),
        ("broker_password", EmbeddedFile.text(PackageResources.broker_password_mustache)),
        ("broker_problem", EmbeddedFile.text(PackageResources.broker_problem_mustache)),
        ("broker_notice", EmbeddedFile.text(PackageResources.broker_notice_mustache)),
        ("broker_consent", EmbeddedFile.text(PackageResources.broker_consent_mustache)),
        ("broker_sign_out", EmbeddedFile.text(PackageResources.broker_sign_out_mustache)),
        ("broker_claim_code", EmbeddedFile.text(PackageResources.broker_claim_code_mustache)),
        ("broker_claim_email", EmbeddedFile.text(PackageResources.broker_claim_email_mustache)),
        ("layout", EmbeddedFile.text(PackageResources.layout_mustache)),
        ("merge_account", EmbeddedFile.text(PackageResources.merge_account_mustache)),
        ("notice", EmbeddedFile.text(PackageResources.notice_mustache)),
        ("passkey_sign_in_form", EmbeddedFile.text(PackageResources.passkey_sign_in_form_mustache)),
        ("password_invite", EmbeddedFile.text(PackageResources.password_invite_mustache)),
        ("problem", EmbeddedFile.text(PackageResources.problem_mustache)),
        ("sandbox_mailbox", EmbeddedFile.text(PackageResources.sandbox_mailbox_mustache)),
        ("start", EmbeddedFile.text(PackageResources.start_mustache)),
        ("step_up_links", EmbeddedFile.text(PackageResources.step_up_links_mustache)),
    ]
}
