import SQLKit

/// Version 16: on PostgreSQL, the write of a biometric unlock is one function call, one round trip
/// instead of seven statements and three commits (SQLite runs the same steps on its direct
/// connection: `PortvaktStore+DeviceUnlock.swift`). The challenge's checks are the domain's
/// `DeviceChallengeRule`, in its order and with its reasons; `UnlockRuleTests` holds both to it.
///
/// Records the request's DPoP proof (a replay changes nothing: `replayed_proof`), takes the
/// challenge (deleted whatever follows, so it answers one assertion at most) and, when
/// it is this device's unlock challenge with the claimed action: updates the device row first (a
/// concurrent revocation waits for this commit or wins before it), clears the device's failure
/// counter, ends the device's session with this client, inserts the new session, its refresh
/// token and the sealed audit event. Returns one row per membership of the user (at least one
/// row): the outcome (`started`, `device_removed`, `replayed_proof`, or the challenge's refusal reason) and the
/// organisation, slug and role for the new access token.
enum DeviceUnlockFunction {
    static func apply(_ db: any SQLDatabase) async throws {
        guard db.dialect.name == "postgresql" else { return }
        try await db.raw(SQLQueryString(definition)).run()
    }

    static let definition = """
    CREATE FUNCTION portvakt_unlock_device(
        proof_jti_hash bytea, proof_expires_at bigint, taken_hash bytea, claimed_action text, throttle_key text, now_ms bigint,
        new_session_id text, new_user_id text, new_client_id text, new_device_id text, new_amr text, new_acr text,
        new_idle_expires_at bigint, new_absolute_expires_at bigint, new_dpop_jkt text,
        new_refresh_token_id text, new_refresh_token_hash bytea,
        event_id text, event_occurred_at bigint, event_action text, event_outcome text, event_actor_user_id text,
        event_organisation_id text, event_subject_type text, event_subject_id text, event_source text, event_details text,
        event_key_id text, event_seal bytea
    ) RETURNS TABLE (outcome text, organisation_id text, slug text, role text)
    LANGUAGE plpgsql AS $$
    #variable_conflict use_column
    DECLARE
        challenge device_challenges;
        result text;
    BEGIN
        IF proof_jti_hash IS NOT NULL THEN
            INSERT INTO dpop_proofs (jti_hash, expires_at) VALUES (proof_jti_hash, proof_expires_at) ON CONFLICT (jti_hash) DO NOTHING;
            IF NOT FOUND THEN
                RETURN QUERY SELECT 'replayed_proof', NULL::text, NULL::text, NULL::text;
                RETURN;
            END IF;
        END IF;
        DELETE FROM device_challenges c WHERE c.challenge_hash = taken_hash RETURNING c.* INTO challenge;
        IF NOT FOUND OR challenge.expires_at <= now_ms THEN
            result := 'challenge_unknown_used_or_expired';
        ELSIF challenge.device_id IS DISTINCT FROM new_device_id THEN
            result := 'challenge_for_another_device';
        ELSIF challenge.purpose <> 'unlock' THEN
            result := 'wrong_purpose';
        ELSIF challenge.action IS DISTINCT FROM claimed_action THEN
            result := 'wrong_action';
        ELSE
            UPDATE devices d SET last_used_at = now_ms WHERE d.id = new_device_id AND d.revoked_at IS NULL;
            IF NOT FOUND THEN
                result := 'device_removed';
            ELSE
                DELETE FROM login_throttles t WHERE t.key = throttle_key;
                UPDATE sessions s SET revoked_at = now_ms, revoked_reason = 'replaced_by_unlock'
                    WHERE s.device_id = new_device_id AND s.client_id = new_client_id AND s.revoked_at IS NULL;
                INSERT INTO sessions (id, user_id, client_id, device_id, amr, acr, auth_time, created_at, idle_expires_at, absolute_expires_at, dpop_jkt)
                    VALUES (new_session_id, new_user_id, new_client_id, new_device_id, new_amr, new_acr, now_ms, now_ms,
                        new_idle_expires_at, new_absolute_expires_at, new_dpop_jkt);
                INSERT INTO refresh_tokens (id, session_id, token_hash, created_at, expires_at)
                    VALUES (new_refresh_token_id, new_session_id, new_refresh_token_hash, now_ms, new_absolute_expires_at);
                INSERT INTO audit_events (id, occurred_at, action, outcome, actor_user_id, organisation_id, subject_type, subject_id,
                        source, details, key_id, seal)
                    VALUES (event_id, event_occurred_at, event_action, event_outcome, event_actor_user_id, event_organisation_id,
                        event_subject_type, event_subject_id, event_source, event_details, event_key_id, event_seal);
                result := 'started';
            END IF;
        END IF;
        RETURN QUERY SELECT result, m.organisation_id, o.slug, m.role
            FROM (SELECT 1) AS one
            LEFT JOIN (memberships m JOIN organisations o ON o.id = m.organisation_id)
                ON m.user_id = new_user_id AND result = 'started'
            ORDER BY o.slug, m.role;
    END;
    $$
    """
}
