import PortvaktModels
import SQLKit

/// Version 28: no session starts for a disabled account (issue 45 item 5, "disabled means
/// disabled, everywhere").
///
/// Disabling an account revokes its sessions in the transaction that sets `users.disabled_at`
/// (``PortvaktStore/disableUser(id:reason:audit:now:)``); every way in checks the account first.
/// This trigger closes the gap between the two: a login, unlock or passkey sign-in that read the
/// account before it was disabled cannot insert its session after. Each session's insert is
/// refused as the constraint `sessions_user_not_disabled` (a `StoreError.constraint`, on both
/// databases). So a disabled account never has a live session, and a refresh token, an access
/// token or a portal session of one fails as any ended session's does: the rotation
/// (`RotationFunction`, `PortvaktStore+DirectRotation.swift`) needs no change.
///
/// On PostgreSQL the trigger reads the user's row `FOR KEY SHARE`: the disabling transaction
/// locks it `FOR UPDATE` first, so a session inserted before waits to be seen (and revoked), and
/// one inserted after waits for the commit and then sees `disabled_at`. `KEY SHARE` does not
/// conflict with the plain updates of a login (`last_eid_login_at`), so two logins of one person
/// do not wait for each other. SQLite has one writer at a time.
enum DisabledUsers {
    static let constraint = StoreError.disabledAccountConstraint

    static func apply(_ db: any SQLDatabase) async throws {
        switch db.dialect.name {
        case "sqlite":
            try await db.raw("""
                CREATE TRIGGER \(unsafeRaw: constraint) BEFORE INSERT ON sessions
                WHEN (SELECT disabled_at FROM users WHERE id = NEW.user_id) IS NOT NULL
                BEGIN SELECT RAISE(ABORT, '\(unsafeRaw: constraint)'); END
                """).run()
        default:
            try await db.raw("""
                CREATE FUNCTION portvakt_sessions_user_not_disabled() RETURNS trigger LANGUAGE plpgsql AS $$
                DECLARE
                    disabled bigint;
                BEGIN
                    SELECT u.disabled_at INTO disabled FROM users u WHERE u.id = NEW.user_id FOR KEY SHARE;
                    IF disabled IS NOT NULL THEN
                        RAISE EXCEPTION 'the account is disabled'
                            USING ERRCODE = 'check_violation', CONSTRAINT = '\(unsafeRaw: constraint)', TABLE = 'sessions';
                    END IF;
                    RETURN NEW;
                END $$
                """).run()
            try await db.raw("""
                CREATE TRIGGER \(unsafeRaw: constraint) BEFORE INSERT ON sessions
                FOR EACH ROW EXECUTE FUNCTION portvakt_sessions_user_not_disabled()
                """).run()
        }
    }
}
