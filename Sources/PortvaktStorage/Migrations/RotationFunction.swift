import SQLKit

/// Version 14: on PostgreSQL, a refresh rotation is one function call, one round trip instead of
/// eight (SQLite runs it on its direct connection instead; nothing changes there).
///
/// The steps and answers are the domain's `RefreshRotationRule`, in its order, answered with its
/// `Step` names (a token presented without its DPoP key changes nothing, so whoever lifted it
/// cannot log the user out); `RotationRuleTests` holds both databases to it. Rotations of one
/// session take turns on the session's row (`FOR UPDATE`, as a logout's update does); under READ
/// COMMITTED each statement after the lock sees what the previous holder committed, so a second
/// use of a token sees the first one's successor.
///
/// Returns one row per membership of the user (at least one row): the outcome, the session as
/// read under the lock, and the organisation, slug and role for the new access token.
enum RotationFunction {
    static func apply(_ db: any SQLDatabase) async throws {
        guard db.dialect.name == "postgresql" else { return }
        try await db.raw(SQLQueryString(definition)).run()
    }

    static let definition = """
    CREATE FUNCTION portvakt_rotate_refresh_token(
        presented_hash bytea, successor_hash bytea, new_successor_id text, expected_client_id text, proof_jkt text,
        proof_jti_hash bytea, proof_expires_at bigint, now_ms bigint, idle_lifetime_ms bigint
    ) RETURNS TABLE (outcome text, session sessions, organisation_id text, slug text, role text)
    LANGUAGE plpgsql AS $$
    #variable_conflict use_column
    DECLARE
        token refresh_tokens;
        current_session sessions;
        successor refresh_tokens;
        result text;
    BEGIN
        IF proof_jti_hash IS NOT NULL THEN
            INSERT INTO dpop_proofs (jti_hash, expires_at) VALUES (proof_jti_hash, proof_expires_at) ON CONFLICT (jti_hash) DO NOTHING;
            IF NOT FOUND THEN
                RETURN QUERY SELECT 'replayed_proof', NULL::sessions, NULL::text, NULL::text, NULL::text;
                RETURN;
            END IF;
        END IF;
        SELECT s.* INTO current_session FROM sessions s
            WHERE s.id = (SELECT t.session_id FROM refresh_tokens t WHERE t.token_hash = presented_hash) FOR UPDATE;
        IF NOT FOUND OR current_session.client_id <> expected_client_id THEN
            RETURN QUERY SELECT 'unknown', NULL::sessions, NULL::text, NULL::text, NULL::text;
            RETURN;
        END IF;
        SELECT t.* INTO token FROM refresh_tokens t WHERE t.token_hash = presented_hash;
        IF current_session.dpop_jkt IS NOT NULL AND current_session.dpop_jkt IS DISTINCT FROM proof_jkt THEN
            result := 'wrong_key';
        ELSIF current_session.revoked_at IS NOT NULL OR now_ms >= current_session.idle_expires_at
            OR now_ms >= current_session.absolute_expires_at OR token.expires_at <= now_ms THEN
            result := 'expired';
        ELSE
            UPDATE sessions SET idle_expires_at = LEAST(now_ms + idle_lifetime_ms, current_session.absolute_expires_at)
                WHERE id = current_session.id;
            IF token.rotated_at IS NULL THEN
                UPDATE refresh_tokens SET rotated_at = now_ms, successor_id = new_successor_id WHERE id = token.id;
                INSERT INTO refresh_tokens (id, session_id, token_hash, parent_id, created_at, expires_at)
                    VALUES (new_successor_id, current_session.id, successor_hash, token.id, now_ms, current_session.absolute_expires_at);
                result := 'rotated';
            ELSE
                SELECT t.* INTO successor FROM refresh_tokens t WHERE t.token_hash = successor_hash;
                IF FOUND AND successor.id = token.successor_id AND successor.rotated_at IS NULL THEN
                    result := 'repeated';
                ELSE
                    UPDATE sessions SET revoked_at = now_ms, revoked_reason = 'refresh_token_reuse'
                        WHERE id = current_session.id AND revoked_at IS NULL;
                    result := 'reused';
                END IF;
            END IF;
        END IF;
        RETURN QUERY SELECT result, current_session, m.organisation_id, o.slug, m.role
            FROM (SELECT 1) AS one
            LEFT JOIN (memberships m JOIN organisations o ON o.id = m.organisation_id)
                ON m.user_id = current_session.user_id AND result IN ('rotated', 'repeated')
            ORDER BY o.slug, m.role;
    END;
    $$
    """
}
