"""Hostile e-mail addresses from an LMS (docs/lms.md, "Which account an LMS user gets";
docs/security.md, "Linking LMS users to accounts"), tested from the documentation alone.

An LMS user must never be given, or linked to, an account that belongs to another person: an
address links by itself only an unused learner account, only from a registration made with
``--match-email``, and only when it is the one unlinked account with that address (compared
whatever its case); any other account with the address waits for its owner's password on the
link page; an account linked to another LMS user without a password is nobody's, and the
address makes a new account. A malformed claim is refused or ignored, never a ``500``.

The attackers: a learner of an LMS that lets them type any address (``platform``, not
trusted), an LMS trusted for its addresses that sends odd ones (``trusted_platform``), and an
instructor whose roster (the LMS's membership list) carries them.
"""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from app.models import LtiAccount, Role, User
from app.runtime.context import GradingRuntime
from app.store import lti as lti_store
from tests.app.lti.conftest import (
    PASSWORD,
    TOOL,
    account,
    choose,
    launch,
    links,
    registered_platform,
    signed_in_as,
)
from tests.app.lti.platform import INSTRUCTOR, LEARNER, Platform
from tests.app.lti.platform import User as LmsUser

LINK_PAGE = "Link your numjudge account"
REFUSED = "This launch from your LMS was refused"
TEACHER = LmsUser(sub="lms-teacher", roles=(INSTRUCTOR,), name="Grace Hopper")
CONTEXT_CLAIM = "https://purl.imsglobal.org/spec/lti/claim/context"


def _linked_to(runtime: GradingRuntime, name: str) -> list[str]:
    """The LMS users (subjects, of any registration) linked to the account ``name``."""
    with runtime.sessions() as session:
        rows = session.scalars(
            select(LtiAccount.subject)
            .join(User, User.id == LtiAccount.user_id)
            .where(User.name == name)
        )
        return sorted(rows)


def _outcome(client: TestClient, answer: httpx.Response) -> str:
    """What a launch gave: ``link page``, ``refused``, ``new account``, or the account's name
    it signed in to."""
    assert answer.status_code < 500, answer.text
    if answer.status_code == 200 and LINK_PAGE in answer.text:
        assert signed_in_as(client) is None
        return "link page"
    if answer.status_code == 400:
        assert REFUSED in answer.text, answer.text
        assert signed_in_as(client) is None
        return "refused"
    assert answer.status_code == 303, answer.text
    name = signed_in_as(client)
    assert name is not None
    return "new account" if name.startswith("lti-") else name


def _set_email(value: Any) -> Any:
    def tamper(claims: dict[str, Any], headers: dict[str, str]) -> None:
        claims["email"] = value

    return tamper


# --- Addresses that are, or look like, a used account's: never that account without its
# password, from either registration.

LOOKALIKES = {
    "ascii-case": ("ada@example.edu", "ADA@EXAMPLE.EDU"),
    "e-acute-case": ("émile@example.edu", "ÉMILE@example.edu"),
    "sigma-final": ("σοφιας@example.edu", "ΣΟΦΙΑΣ@example.edu"),
    "sigma-medial": ("σοφιας@example.edu", "σοφιασ@example.edu"),
    "sharp-s-to-ss": ("strauß@example.edu", "STRAUSS@example.edu"),
    "capital-sharp-s": ("strauß@example.edu", "STRAUẞ@example.edu"),
    "turkish-dotted-I": ("ilker@example.edu", "İlker@example.edu"),
    "turkish-dotless-i": ("ilker@example.edu", "ılker@example.edu"),
    "kelvin-sign": ("kate@example.edu", "\u212aate@example.edu"),
    "long-s": ("sam@example.edu", "\u017fam@example.edu"),
    "full-width": ("ada@example.edu", "ａｄａ@example.edu"),
    "cyrillic-a": ("ada@example.edu", "\u0430d\u0430@example.edu"),
    "combining-acute": ("émile@example.edu", "e\u0301mile@example.edu"),
    "precomposed-acute": ("e\u0301mile@example.edu", "émile@example.edu"),
    "spaces-around": ("ada@example.edu", "  ada@example.edu\t\n"),
    "inner-space": ("ada@example.edu", "ada @example.edu"),
    "zero-width-space": ("ada@example.edu", "ada\u200b@example.edu"),
    "zero-width-joiner": ("ada@example.edu", "a\u200dda@example.edu"),
    "bom": ("ada@example.edu", "\ufeffada@example.edu"),
    "soft-hyphen": ("ada@example.edu", "ad\u00ada@example.edu"),
    "nul": ("ada@example.edu", "ada@example.edu\x00"),
    "nul-inside": ("ada@example.edu", "ada\x00@example.edu"),
    "control": ("ada@example.edu", "ada\x07\x1b@example.edu"),
    "display-name": ("ada@example.edu", "Ada Lovelace <ada@example.edu>"),
    "two-addresses": ("ada@example.edu", "mallory@example.edu, ada@example.edu"),
    "long-padding": ("ada@example.edu", "ada@example.edu" + " " * 20_000),
}


SAME_ADDRESS = {
    "ascii-case",
    "e-acute-case",
    "sigma-final",
    "capital-sharp-s",
    "spaces-around",
    "long-padding",
}
"""The writings above that are the owner's address: another case (Unicode's lower case, as
Python makes it), spaces around it."""


@pytest.mark.parametrize("case", LOOKALIKES)
def test_which_writings_are_the_owners_address(runtime: GradingRuntime, case: str) -> None:
    """Every writing above, by the look-up a launch makes: the owner's address in another case
    or with spaces around it, nothing else (no wider folding, no normalisation)."""
    owner, sent = LOOKALIKES[case]
    account(runtime, "ada", owner, used=True)
    with runtime.sessions() as session:
        found = [user.name for user in lti_store.users_with_email(session=session, email=sent)]
    assert found == (["ada"] if case in SAME_ADDRESS else [])


# A launch for one writing of each kind: the same address, another's (another script, a sign
# that lower-cases to an ASCII letter), kilobytes of it, and text no database stores.
LAUNCHED_LOOKALIKES = ("ascii-case", "kelvin-sign", "cyrillic-a", "long-padding", "nul-inside")


@pytest.mark.parametrize("trusted", [False, True], ids=["untrusted", "trusted"])
@pytest.mark.parametrize("case", LAUNCHED_LOOKALIKES)
def test_a_lookalike_of_a_used_accounts_address_never_signs_in_as_its_owner(
    client: TestClient, runtime: GradingRuntime, case: str, trusted: bool
) -> None:
    """Ada has a password and a submission: whatever the address looks like, the launch gives
    the link page, a new account or a refusal, never Ada's account and never a 500."""
    owner, sent = LOOKALIKES[case]
    account(runtime, "ada", owner, used=True)
    mallory = LmsUser(sub="lms-mallory", roles=(LEARNER,), name="Mallory", email=sent)
    with registered_platform(runtime, match_email=trusted) as lms:
        outcome = _outcome(client, launch(client, lms, mallory, TOOL + "/"))
        assert outcome in {"link page", "new account", "refused"}
        assert _linked_to(runtime, "ada") == []
        # And the second launch (the LMS user now linked, or still not) does not either.
        client.cookies.clear()
        again = _outcome(client, launch(client, lms, mallory, TOOL + "/"))
        assert again != "ada" and _linked_to(runtime, "ada") == []


@pytest.mark.parametrize(
    ("owner", "sent"),
    [
        ("ada@example.edu", "Ada@Example.EDU"),
        ("émile@example.edu", "Émile@example.edu"),
        ("åsa.öberg@example.se", "ÅSA.ÖBERG@example.se"),
        ("ωμέγα@example.gr", "ΩΜΈΓΑ@example.gr"),
        ("дарья@example.ru", "ДАРЬЯ@example.ru"),
    ],
    ids=["ascii", "french", "swedish", "greek", "cyrillic"],
)
def test_a_used_accounts_address_in_another_case_shows_the_link_page(
    client: TestClient, runtime: GradingRuntime, platform: Platform, owner: str, sent: str
) -> None:
    """docs/lms.md rule 3 with the address compared whatever its case: the owner's account
    exists, so the LMS user is asked to sign in to it (or to take a new account), for every
    alphabet, not only ASCII."""
    account(runtime, "ada", owner, used=True)
    learner = LmsUser(sub="lms-ada", roles=(LEARNER,), name="Ada", email=sent)
    answer = launch(client, platform, learner, TOOL + "/")
    assert _outcome(client, answer) == "link page"
    linked = choose(client, answer, "sign-in", username="ada", password=PASSWORD)
    assert linked.status_code == 303 and signed_in_as(client) == "ada"


# --- An unused roster account and a trusted registration: linked only by its own address.


@pytest.mark.parametrize(
    ("roster", "sent"),
    [
        ("émile@example.edu", "ÉMILE@EXAMPLE.EDU"),
        ("ÅSA.ÖBERG@example.se", "åsa.öberg@example.se"),
        ("дарья@example.ru", "Дарья@example.ru"),
    ],
    ids=["french", "swedish", "cyrillic"],
)
def test_a_trusted_platform_links_an_unused_roster_account_in_any_alphabets_case(
    client: TestClient,
    runtime: GradingRuntime,
    trusted_platform: Platform,
    roster: str,
    sent: str,
) -> None:
    account(runtime, "emile", roster)
    learner = LmsUser(sub="lms-emile", roles=(LEARNER,), name="Émile", email=sent)
    assert _outcome(client, launch(client, trusted_platform, learner, TOOL + "/")) == "emile"
    assert links(runtime) == {"lms-emile": "emile"}


OTHER_ADDRESSES = {
    "full-width": "ａｄａ@example.edu",
    "cyrillic-a": "\u0430d\u0430@example.edu",
    "greek-alpha": "\u03b1da@example.edu",
    "kelvin-sign": "\u212aate@example.edu",  # lower case: the ASCII "k"
    "dotted-capital-i": "ad\u0130@example.edu",  # lower case: "i" and a combining dot
    "zero-width-space": "ada\u200b@example.edu",
    "inner-space": "ada @example.edu",
    "display-name": "Ada Lovelace <ada@example.edu>",
    "two-addresses": "mallory@example.edu, ada@example.edu",
    "nul-inside": "ada\x00@example.edu",
    "prefix": "ada@example.edu.evil.example",
    "wildcard": "%@example.edu",
    "underscore": "ad_@example.edu",
}


@pytest.mark.parametrize("sent", OTHER_ADDRESSES.values(), ids=OTHER_ADDRESSES.keys())
def test_a_trusted_platform_does_not_link_a_roster_account_by_a_lookalike_address(
    client: TestClient, runtime: GradingRuntime, trusted_platform: Platform, sent: str
) -> None:
    """Another address, however alike (another script, full-width letters, an invisible
    character, a pattern, a sign whose lower case is an ASCII letter), is not the roster
    account's address: no link by it."""
    account(runtime, "ada", "ada@example.edu")
    account(runtime, "kate", "kate@example.edu")
    mallory = LmsUser(sub="lms-mallory", roles=(LEARNER,), name="Mallory", email=sent)
    outcome = _outcome(client, launch(client, trusted_platform, mallory, TOOL + "/"))
    assert outcome in {"new account", "refused", "link page"}
    assert _linked_to(runtime, "ada") == [] and _linked_to(runtime, "kate") == []


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("ada@example.edu", "ada@example.edu"),
        ("ada@example.edu", "ADA@example.edu"),
        ("émile@example.edu", "ÉMILE@example.edu"),
    ],
    ids=["same", "ascii-case", "non-ascii-case"],
)
def test_two_roster_accounts_with_the_address_are_not_linked_by_it(
    client: TestClient, runtime: GradingRuntime, trusted_platform: Platform, first: str, second: str
) -> None:
    """Rule 3: several accounts with the address (whatever its case): the link page, even when
    both are unused, and neither is linked."""
    account(runtime, "ada", first)
    account(runtime, "ada2", second)
    learner = LmsUser(sub="lms-ada", roles=(LEARNER,), name="Ada", email=first.upper())
    assert _outcome(client, launch(client, trusted_platform, learner, TOOL + "/")) == "link page"
    assert links(runtime) == {}


# --- An address that changes, and accounts already linked.


def test_an_lms_user_who_changes_their_address_keeps_theiraccount(
    client: TestClient, runtime: GradingRuntime, trusted_platform: Platform
) -> None:
    """Rule 1 comes first: Mallory's later address (Ada's, of an unused roster account and of
    a used one) neither moves her nor links the roster account to her; Ada, launching later,
    still gets her roster account (Mallory's account is linked and has no password)."""
    account(runtime, "ada", "ada@example.edu")
    account(runtime, "bob", "bob@example.edu", used=True)
    mallory = LmsUser(sub="lms-mallory", roles=(LEARNER,), email="mallory@example.edu")
    own = _outcome(client, launch(client, trusted_platform, mallory, TOOL + "/"))
    assert own == "new account"
    mine = signed_in_as(client)
    for address in ("ada@example.edu", "BOB@example.edu", "Ada@Example.edu"):
        client.cookies.clear()
        changed = LmsUser(sub=mallory.sub, roles=(LEARNER,), email=address)
        outcome = _outcome(client, launch(client, trusted_platform, changed, TOOL + "/"))
        assert outcome == "new account"
        assert signed_in_as(client) == mine
    assert _linked_to(runtime, "ada") == [] and _linked_to(runtime, "bob") == []
    client.cookies.clear()
    ada = LmsUser(sub="lms-ada", roles=(LEARNER,), name="Ada", email="ada@example.edu")
    assert _outcome(client, launch(client, trusted_platform, ada, TOOL + "/")) == "ada"
    assert _linked_to(runtime, "ada") == ["lms-ada"]


@pytest.mark.parametrize("second_trusted", [False, True], ids=["untrusted", "trusted"])
def test_an_account_linked_by_its_address_is_nobody_elses_by_the_same_address(
    client: TestClient, runtime: GradingRuntime, trusted_platform: Platform, second_trusted: bool
) -> None:
    """Ada's roster account, linked to her LMS user by its address, has no password: another
    LMS user of the same registration or of another one (trusted or not) sending the address,
    in any case, gets a new account."""
    account(runtime, "ada", "ada@example.edu")
    ada = LmsUser(sub="lms-ada", roles=(LEARNER,), email="ada@example.edu")
    assert _outcome(client, launch(client, trusted_platform, ada, TOOL + "/")) == "ada"
    twin = LmsUser(sub="lms-twin", roles=(LEARNER,), email="ADA@example.edu")
    client.cookies.clear()
    assert _outcome(client, launch(client, trusted_platform, twin, TOOL + "/")) == "new account"
    with registered_platform(runtime, match_email=second_trusted) as second:
        for sub in ("lms-ada", "lms-other"):  # the same LMS id there too, or another
            client.cookies.clear()
            other = LmsUser(sub=sub, roles=(LEARNER,), email="Ada@Example.EDU")
            assert _outcome(client, launch(client, second, other, TOOL + "/")) == "new account"
    assert _linked_to(runtime, "ada") == ["lms-ada"]


def test_an_account_linked_after_signing_in_still_asks_for_its_password(
    client: TestClient, runtime: GradingRuntime, platform: Platform, trusted_platform: Platform
) -> None:
    """Ada linked her used account on the link page: a learner of another registration, even
    a trusted one, sending her address gets the link page, and her password is the only way
    in."""
    account(runtime, "ada", "ada@example.edu", used=True)
    ada = LmsUser(sub="lms-ada", roles=(LEARNER,), email="ada@example.edu")
    page = launch(client, platform, ada, TOOL + "/")
    assert choose(client, page, "sign-in", username="ada", password=PASSWORD).status_code == 303
    client.cookies.clear()
    mallory = LmsUser(sub="lms-mallory", roles=(LEARNER,), email="ADA@example.edu")
    page = launch(client, trusted_platform, mallory, TOOL + "/")
    assert _outcome(client, page) == "link page"
    wrong = choose(client, page, "sign-in", username="ada", password="not her password")
    assert wrong.status_code == 400 and signed_in_as(client) is None
    assert _linked_to(runtime, "ada") == ["lms-ada"]


def test_a_learner_account_made_an_lms_instructor_is_not_linked_by_its_address(
    client: TestClient, runtime: GradingRuntime, trusted_platform: Platform
) -> None:
    """An LMS's Instructor is never linked by address, even to an unused learner account, nor
    after a learner's launch promoted nobody."""
    account(runtime, "ada", "ada@example.edu")
    boss = LmsUser(sub="lms-boss", roles=(INSTRUCTOR, LEARNER), email="ada@example.edu")
    assert _outcome(client, launch(client, trusted_platform, boss, TOOL + "/")) == "link page"
    assert links(runtime) == {}


# --- Claims that are not an address.

NOT_STRINGS = {
    "list": ["ada@example.edu"],
    "list-of-two": ["mallory@example.edu", "ada@example.edu"],
    "number": 42,
    "float": 1e308,
    "object": {"address": "ada@example.edu"},
    "true": True,
    "null": None,
    "empty": "",
}


@pytest.mark.parametrize("value", NOT_STRINGS.values(), ids=NOT_STRINGS.keys())
def test_an_email_claim_that_is_not_an_address_is_never_a_500_nor_a_link(
    client: TestClient, runtime: GradingRuntime, trusted_platform: Platform, value: Any
) -> None:
    """An unused roster account and a used one have the address the claim carries inside a
    list or an object: the launch is refused or made without an address, never a 500, never
    either account."""
    account(runtime, "ada", "ada@example.edu")
    account(runtime, "bob", "bob@example.edu", used=True)
    mallory = LmsUser(sub="lms-mallory", roles=(LEARNER,), name="Mallory")
    trusted_platform.tamper = _set_email(value)
    outcome = _outcome(client, launch(client, trusted_platform, mallory, TOOL + "/"))
    assert outcome in {"new account", "refused"}
    assert _linked_to(runtime, "ada") == [] and _linked_to(runtime, "bob") == []
    with runtime.sessions() as session:  # not the claim written out ("['ada@...']", "42")
        addresses = session.scalars(select(User.email).where(User.name.startswith("lti-")))
        assert set(addresses) <= {None, ""}


@pytest.mark.parametrize("size", [1_000, 30_000, 70_000], ids=["1kB", "30kB", "70kB"])
def test_a_very_long_address_is_not_a_500(
    client: TestClient, runtime: GradingRuntime, trusted_platform: Platform, size: int
) -> None:
    """A launch whose address is kilobytes long makes a new account or is refused (past the
    request body's cap, 64 KiB: a 413 naming it), never Ada's account, never a 500."""
    long = "a" * size + "@example.edu"
    account(runtime, "ada", "ada@example.edu")
    mallory = LmsUser(sub="lms-mallory", roles=(LEARNER,), name="Mallory", email=long)
    answer = launch(client, trusted_platform, mallory, TOOL + "/")
    if answer.status_code == 413:
        assert "Request body too large" in answer.text and signed_in_as(client) is None
    else:
        assert _outcome(client, answer) in {"new account", "refused"}
    assert _linked_to(runtime, "ada") == []


UNSTORABLE = "a NUL character or a lone surrogate"
BAD_CHARACTERS: dict[str, tuple[dict[str, Any], str]] = {
    "nul-after": ({"email": "ada@example.edu\x00"}, "the claim email"),
    "nul-inside": ({"email": "mallory\x00@example.edu"}, "the claim email"),
    "nul-in-name": ({"name": "Mallory\x00", "email": "mallory@example.edu"}, "the claim name"),
    "surrogate": ({"email": "\ud800@example.edu"}, "the claim email"),
    "surrogate-in-name": (
        {"name": "Mallory \udfff", "email": "mallory@example.edu"},
        "the claim name",
    ),
    "surrogate-in-a-title": (
        {CONTEXT_CLAIM: {"id": "c1", "title": "Neural nets \udfff"}},
        f"the claim {CONTEXT_CLAIM}.title",
    ),
}


@pytest.mark.both_databases
@pytest.mark.parametrize("case", BAD_CHARACTERS.keys())
def test_a_nul_or_a_surrogate_in_a_claim_refuses_the_launch_naming_the_claim(
    client: TestClient, runtime: GradingRuntime, trusted_platform: Platform, case: str
) -> None:
    """On PostgreSQL too, which refuses NUL in text; a string Python holds but UTF-8 cannot
    encode (a lone surrogate; JSON's \\u escapes carry it) is no text to store either."""
    account(runtime, "ada", "ada@example.edu", used=True)
    mallory = LmsUser(sub="lms-mallory", roles=(LEARNER,), name="Mallory")
    claims, named = BAD_CHARACTERS[case]

    def tamper(token: dict[str, Any], headers: dict[str, str]) -> None:
        token.update(claims)

    trusted_platform.tamper = tamper
    answer = launch(client, trusted_platform, mallory, TOOL + "/")
    assert _outcome(client, answer) == "refused"
    assert UNSTORABLE in answer.text and named in answer.text
    assert _linked_to(runtime, "ada") == []


@pytest.mark.both_databases
@pytest.mark.parametrize(
    ("path", "field"),
    [
        ("/lti/login", "iss"),
        ("/lti/login", "client_id"),
        ("/lti/launch", "state"),
        ("/lti/launch", "id_token"),
    ],
)
def test_a_nul_in_a_login_or_a_launch_from_anyone_is_refused(
    client: TestClient, trusted_platform: Platform, path: str, field: str
) -> None:
    """The login initiation and the launch are posted by anyone: their fields are looked up
    (the platform by issuer and client id, the state in the launch cache) before any signature
    is checked. A NUL in one finds nothing (a 400 refusal), on PostgreSQL too."""
    fields = {
        "iss": trusted_platform.issuer,
        "client_id": trusted_platform.client_ids[0],
        "login_hint": "lms-mallory",
        "target_link_uri": TOOL + "/",
        "state": "state-1",
        "id_token": "a.b.c",
    }
    fields[field] = fields[field] + "\x00"
    answer = client.post(path, data=fields)
    assert answer.status_code == 400, answer.text
    assert REFUSED in answer.text


def test_a_link_choice_for_a_launch_id_with_a_nul_is_a_launch_gone(
    client: TestClient, runtime: GradingRuntime, platform: Platform
) -> None:
    """The link page's launch id comes back in a form: with a NUL it names no waiting launch."""
    account(runtime, "ada", "ada@example.edu", used=True)
    ada = LmsUser(sub="lms-ada", roles=(LEARNER,), name="Ada", email="ada@example.edu")
    page = launch(client, platform, ada, TOOL + "/")
    assert _outcome(client, page) == "link page"
    answer = choose(client, page, "new", launch_id="launch\x00")
    assert answer.status_code == 400, answer.text
    assert REFUSED in answer.text
    assert _linked_to(runtime, "ada") == []


# --- Roster synchronisation: an instructor's roster, or an LMS, carrying such addresses.


def _course(client: TestClient, lms: Platform) -> int:
    """The teacher opens numjudge from the course; the course's number."""
    assert launch(client, lms, TEACHER, TOOL + "/instructor/lti").status_code == 303
    lms.tool_jwks = client.get("/lti/jwks").json()
    lms.enrol(TEACHER)
    found = re.search(
        r'action="/instructor/lti/courses/(\d+)/sync"', client.get("/instructor/lti").text
    )
    assert found is not None
    return int(found.group(1))


def _sync_page(client: TestClient, course: int) -> httpx.Response:
    page = client.get("/instructor/lti").text
    found = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert found is not None
    answer: httpx.Response = client.post(
        f"/instructor/lti/courses/{course}/sync", data={"csrf_token": found.group(1)}
    )
    return answer


def test_two_members_with_one_address_do_not_share_a_rosteraccount(
    client: TestClient, runtime: GradingRuntime, trusted_platform: Platform
) -> None:
    """A roster (or an LMS) with two members sending Ada's address, in two cases, in one
    synchronisation: at most one of them gets Ada's unused account."""
    account(runtime, "ada", "ada@example.edu")
    course = _course(client, trusted_platform)
    trusted_platform.members_page_size = 1  # each on a page of its own
    for sub, address in (("lms-ada", "ada@example.edu"), ("lms-twin", "ADA@example.edu")):
        trusted_platform.enrol(LmsUser(sub=sub, roles=(LEARNER,), name=sub, email=address))
    assert _sync_page(client, course).status_code == 200
    assert len(_linked_to(runtime, "ada")) <= 1
    assert _sync_page(client, course).status_code == 200
    assert len(_linked_to(runtime, "ada")) <= 1


def test_a_synchronisation_leaves_a_used_accounts_lookalike_member_waiting_or_apart(
    client: TestClient, runtime: GradingRuntime, trusted_platform: Platform
) -> None:
    """A hostile instructor's roster, from a trusted registration: members sending a used
    account's address in another case, an instructor's address, and an unused account's
    address as an LMS instructor, are left waiting; lookalikes of another script or with an
    invisible character are never linked to the account."""
    account(runtime, "emile", "émile@example.edu", used=True)
    account(runtime, "grace", "grace@example.edu", role=Role.INSTRUCTOR)
    account(runtime, "ada", "ada@example.edu")
    course = _course(client, trusted_platform)
    members = [
        LmsUser("m-emile", (LEARNER,), "Case Emile", "ÉMILE@example.edu"),
        LmsUser("m-grace", (LEARNER,), "Fake Grace", "Grace@example.edu"),
        LmsUser("m-boss", (INSTRUCTOR,), "Boss Ada", "ada@example.edu"),
        LmsUser("m-cyr", (LEARNER,), "Cyrillic Ada", "\u0430d\u0430@example.edu"),
        LmsUser("m-zw", (LEARNER,), "Zero Width Ada", "ada\u200b@example.edu"),
        LmsUser("m-fw", (LEARNER,), "Full Width Ada", "ａｄａ@example.edu"),
    ]
    for member in members:
        trusted_platform.enrol(member)
    answer = _sync_page(client, course)
    assert answer.status_code == 200, answer.text
    for waiting in ("Case Emile", "Fake Grace", "Boss Ada"):
        assert waiting in answer.text.split("Not added", 1)[-1]
    assert _linked_to(runtime, "emile") == []
    assert _linked_to(runtime, "grace") == []
    assert _linked_to(runtime, "ada") == []


MEMBER_ADDRESSES: dict[str, Any] = {
    "list": ["ada@example.edu"],
    "number": 42,
    "object": {"address": "ada@example.edu"},
    "nul": "ada@example.edu\x00",
    "surrogate": "\ud800@example.edu",
}


@pytest.mark.both_databases
@pytest.mark.parametrize("case", MEMBER_ADDRESSES.keys())
def test_a_member_whose_address_is_not_a_string_is_not_a_500(
    client: TestClient, runtime: GradingRuntime, trusted_platform: Platform, case: str
) -> None:
    """A roster synchronisation is refused with its reason (502, nothing changed) or goes on
    without the address: neither a 500 nor Ada's account. Text no database stores is refused,
    naming the member's field."""
    account(runtime, "ada", "ada@example.edu")
    course = _course(client, trusted_platform)
    trusted_platform.enrol(LmsUser("m-odd", (LEARNER,), "Odd One", MEMBER_ADDRESSES[case]))
    answer = _sync_page(client, course)
    assert answer.status_code in {200, 502}, answer.text
    if answer.status_code == 502:
        assert "The roster could not be synchronised" in answer.text
    if case in {"nul", "surrogate"}:
        assert answer.status_code == 502
        assert UNSTORABLE in answer.text and "].email" in answer.text
    assert _linked_to(runtime, "ada") == []
