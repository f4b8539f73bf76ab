#!/usr/bin/env python3
"""An independent SCIM 2.0 client (scim2-client, on scim2-models) against Portvakt's /scim/v2.

Usage: scim-interop-test.py BASE_URL TOKEN, the token a member system's of NHF. The client
discovers the server (ServiceProviderConfig, ResourceTypes, Schemas), builds its models from
what Portvakt publishes, and validates every request and answer against them: create, read,
filters, paging, PUT and PATCH with ETags, a stale version (412), refusals in SCIM's error
shape, a request without the token (401), delete. The token is never printed.
"""
import sys
import uuid

from httpx2 import Client
from scim2_client.engines.httpx2 import SyncSCIMClient
from scim2_models import Error, PatchOp, PatchOperation, SCIMException

CORE = "urn:ietf:params:scim:schemas:core:2.0:User"
MEMBERSHIP = "urn:portvakt:params:scim:schemas:extension:membership:2.0:User"
PATCH_OP = "urn:ietf:params:scim:api:messages:2.0:PatchOp"
# Una of the sandbox: no organisation has her, so NHF holds no record with her number.
PERSONNUMMER = "26449933086"

checks = 0


def check(condition, what):
    global checks
    if not condition:
        raise SystemExit(f"scim interop: FAILED: {what}")
    checks += 1


def refusal(result, status, scim_type=None):
    """Whether `result` is the SCIM error a server answers with `status` (and `scim_type`)."""
    return (
        isinstance(result, Error)
        and result.status == status
        and (scim_type is None or result.scim_type == scim_type)
        and bool(result.detail)
    )


def main(base, token):
    scim_url = base.rstrip("/") + "/scim/v2"
    scim = SyncSCIMClient(Client(base_url=scim_url, headers={"Authorization": f"Bearer {token}"}))
    scim.discover()
    User = scim.get_resource_model("User")
    check(User is not None, "discovery describes the User resource type")
    raw_schemas = scim.request("GET", "/Schemas").json()
    extension = next(s for s in raw_schemas["Resources"] if s["id"] == MEMBERSHIP)
    personnummer = next(a for a in extension["attributes"] if a["name"] == "personnummer")
    check(personnummer["mutability"] == "writeOnly" and personnummer["returned"] == "never", "the personnummer is write-only")
    config = scim.provider.config
    check(config.patch.supported and config.etag.supported and not config.bulk.supported, "ServiceProviderConfig")
    print("scim interop: discovered User with the membership extension")

    suffix = uuid.uuid4().hex[:10]
    user_name = f"interop-{suffix}"
    payload = {
        "schemas": [CORE, MEMBERSHIP],
        "externalId": f"ext-{suffix}",
        "userName": user_name,
        "name": {"givenName": "Una", "familyName": "Utenfor"},
        "emails": [{"value": f"{user_name}@example.no", "type": "work", "primary": True}],
        "phoneNumbers": [{"value": "+47 912 34 567", "type": "mobile"}],
        "active": True,
        MEMBERSHIP: {"role": "coordinator", "personnummer": PERSONNUMMER, "memberNumber": suffix},
    }
    created = scim.create(payload)
    check(created.id and created.meta.version == 'W/"1"', "created with an id and version 1")
    check(created.user_name == user_name and created.external_id == f"ext-{suffix}", "userName and externalId kept")
    raw = scim.request("GET", f"/Users/{created.id}")
    check(raw.status_code == 200 and PERSONNUMMER not in raw.text, "the personnummer is never shown")
    check(raw.json()[MEMBERSHIP]["personnummerOnRecord"] is True and raw.json()[MEMBERSHIP]["role"] == "coordinator", "personnummerOnRecord")
    check(raw.json()["phoneNumbers"][0]["value"] == "+4791234567", "the phone kept in E.164")
    check(raw.headers.get("content-type", "").startswith("application/scim+json"), "application/scim+json")
    print("scim interop: created a user; the personnummer is on record and never shown")

    fetched = scim.query(User, created.id)
    check(fetched.id == created.id and fetched.meta.location.endswith(f"/scim/v2/Users/{created.id}"), "read by id, with its location")
    for expression in (f'userName eq "{user_name.upper()}"', f'externalId eq "ext-{suffix}"', f'emails.value eq "{user_name}@example.no"'):
        found = scim.query(User, query_parameters={"filter": expression})
        check(found.total_results == 1 and found.resources[0].id == created.id, f"filter {expression}")
    page = scim.query(User, query_parameters={"startIndex": 1, "count": 1})
    check(page.items_per_page == 1 and page.start_index == 1 and page.total_results >= 1, "a page of one")
    empty = scim.query(User, query_parameters={"count": 0})
    check(empty.items_per_page == 0 and not empty.resources and empty.total_results >= 1, "count=0 counts only")
    bad_filter = scim.query(User, query_parameters={"filter": f'userName co "{suffix}"'}, raise_scim_errors=False)
    check(refusal(bad_filter, 400, "invalidFilter"), "an unsupported filter is 400 invalidFilter")
    print("scim interop: filters on userName, externalId and emails.value; paging")

    fetched.name.given_name = "Una Marie"
    replaced = scim.replace(fetched)
    check(replaced.name.given_name == "Una Marie" and replaced.meta.version == 'W/"2"', "PUT with If-Match")
    stale = scim.replace(fetched, raise_scim_errors=False)
    check(refusal(stale, 412), "PUT with a stale version is 412")
    patch = PatchOp[User](operations=[PatchOperation(op="replace", path="name.familyName", value="Ute")])
    patched = scim.modify(replaced, patch)
    check(patched.name.family_name == "Ute" and patched.meta.version == 'W/"3"', "PATCH with If-Match")
    ended = scim.modify(User, created.id, {
        "schemas": [PATCH_OP],
        "Operations": [{"op": "Replace", "path": "active", "value": False}, {"op": "remove", "path": "phoneNumbers"}],
    })
    check(ended.active is False and not ended.phone_numbers, "PATCH active false and remove")
    print("scim interop: PUT and PATCH with ETags; a stale version is 412")

    taken = dict(payload, externalId=f"other-{suffix}")
    taken[MEMBERSHIP] = {"role": "peer_mentor"}
    check(refusal(scim.create(taken, raise_scim_errors=False), 409, "uniqueness"), "a taken userName is 409 uniqueness")
    invalid = dict(payload, externalId=f"third-{suffix}", userName=f"third-{suffix}", emails=[])
    invalid[MEMBERSHIP] = {"personnummer": "12345678901"}
    result = scim.create(invalid, raise_scim_errors=False)
    check(refusal(result, 400, "invalidValue") and "12345678901" not in (result.detail or ""), "an invalid personnummer is 400, not quoted back")
    unknown = scim.request("POST", "/Users", json={"schemas": [CORE], "externalId": "x", "userName": "x", "nickName": "Babs"})
    body = unknown.json()
    check(unknown.status_code == 400 and body.get("scimType") == "invalidValue" and "nickName" in body.get("detail", ""), "an unknown attribute is refused")
    check(body.get("status") == "400" and body.get("schemas") == ["urn:ietf:params:scim:api:messages:2.0:Error"], "SCIM's error shape")
    malformed = scim.request("POST", "/Users", content=b'{"schemas": [', headers={"Content-Type": "application/scim+json"})
    check(malformed.status_code == 400 and malformed.json().get("scimType") == "invalidSyntax", "malformed JSON is 400 invalidSyntax")
    path = scim.modify(User, created.id, {"schemas": [PATCH_OP], "Operations": [{"op": "replace", "path": "nickName", "value": "x"}]}, raise_scim_errors=False)
    check(refusal(path, 400, "invalidPath"), "a PATCH path that does not exist is 400 invalidPath")
    print("scim interop: refusals in SCIM's error shape")

    anonymous = SyncSCIMClient(Client(base_url=scim_url), provider=scim.provider)
    check(refusal(anonymous.query(User, created.id, raise_scim_errors=False), 401), "no token is 401")

    check(scim.delete(User, created.id) is None, "DELETE")
    check(refusal(scim.query(User, created.id, raise_scim_errors=False), 404), "deleted")
    try:
        scim.query(User, created.id)
        check(False, "a deleted user raises")
    except SCIMException as exc:
        check(exc.status == 404, "a deleted user raises 404")
    print(f"scim interop: {checks} checks passed")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit("usage: scim-interop-test.py BASE_URL TOKEN")
    main(sys.argv[1], sys.argv[2])
