"""No admin list can be made to tell a secret (games.admin.lookups).

Before: staff with only view permissions rebuilt a live hand from
``/admin/games/match/?state__hands__1__icontains=…`` and a live match's seed from
``?id=<id>&seed__lte=N``, and the same through rounds (``start__hands__…``) and undo
points (``state__…``). Here every registered admin's list is asked, by a staff member
holding only view permissions, with every field path that reaches a secret (the
model's own fields and those one relation away, forward or back), with lookups into
the JSON, with each column's sorting (``o=``) and with searches for the secrets; then
the secrets of the live match are changed (another seed, the hands swapped, new
links, another password hash) and every request is asked again. Nothing may answer
differently: a request is refused, or its answer does not depend on the secret.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlencode

import pytest
from django.contrib import admin
from django.contrib.auth.models import Permission
from django.db import models
from django.template.response import SimpleTemplateResponse
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from engine.bots import choose
from engine.views import view
from games import services
from games.admin.lookups import SECRETS
from games.models import Match, Round, UndoPoint
from tests import seeded
from tests.games.conftest import rid
from tests.games.table.socket.conftest import spec, state_of

pytestmark = pytest.mark.django_db

LIVE_SEED, LIVE_SEED_AFTER, FINISHED_SEED = 48_213_377, 97_153_311, 60_000_000
PASSWORD_BEFORE, PASSWORD_AFTER = "a long secret 42", "another long secret 43"


def live_match(alice: Any) -> Match:
    """alice and a computer, alice having acted once (so there is an undo point)."""
    match = seeded.match_create(creator=alice, seats=[spec("me"), spec("computer")], seed=LIVE_SEED)
    for _step in range(200):
        state = state_of(match.pk)
        if state.turn == 0:
            version = Match.objects.values_list("version", flat=True).get(pk=match.pk)
            services.action_submit(
                match_id=match.pk,
                user=alice,
                seat=0,
                action=choose(view(state, 0), "casual").to_json(),
                expected_version=version,
                request_id=rid(),
            )
            break
        services.computer_step(match_id=match.pk)
    assert UndoPoint.objects.filter(round__match=match).exists()
    return match


def leaves(value: dict[str, Any]) -> Iterator[tuple[tuple[str, ...], Any]]:
    """A few (key path, leaf) pairs of a state or deal: its seed, a tile of the second hand."""
    for holder, keys in ((value, ()), (value.get("start") or {}, ("start",))):
        if "seed" in holder:
            yield (*keys, "seed"), holder["seed"]
        hands = holder.get("hands") or []
        if len(hands) > 1 and hands[1]:
            yield (*keys, "hands", "1", "0", "0"), hands[1][0][0]


def json_probes(path: str, value: Any) -> list[dict[str, str]]:
    probes = [{f"{path}__has_key": "hands"}, {f"{path}__isnull": "False"}]
    hands = value.get("hands") or []
    if len(hands) > 1 and hands[1]:
        tile = json.dumps(hands[1][0])
        probes += [
            {f"{path}__hands__1__icontains": tile},
            {f"{path}__icontains": tile},
            {f"{path}__contains": json.dumps({"hands": [[], [hands[1][0]]]})},
        ]
    for keys, leaf in leaves(value):
        key = "__".join(keys)
        probes += [{f"{path}__{key}": json.dumps(leaf)}, {f"{path}__{key}__lte": json.dumps(leaf)}]
    return probes


def probes_for(path: str, value: Any, live_id: int, id_path: str) -> list[dict[str, str]]:
    """Requests whose answer would depend on `value` were the lookup allowed."""
    if isinstance(value, dict):
        return json_probes(path, value)
    if isinstance(value, int):
        found = [
            {path: str(value)},
            {f"{path}__lte": str(value)},
            {f"{path}__gt": str(value)},
            {f"{path}__in": str(value)},
            {f"{path}__range": f"{value},{value}"},
        ]
        # the report's own: one match at a time, by its id
        return found + [{id_path: str(live_id), **probe} for probe in found[1:3]]
    text = str(value)
    return [
        {path: text},
        {f"{path}__startswith": text[:5]},
        {f"{path}__contains": text[1:6]},
        {f"{path}__regex": "^" + text[:5]},
        {f"{path}__gt": text},
    ]


def secret_paths(model: type[models.Model]) -> Iterator[tuple[str, type[models.Model], str]]:
    """(path, model holding the secret, secret field) for every path from `model` to a
    secret: its own fields, and each relation's model's fields (forward and back)."""
    for field in model._meta.get_fields():
        if (model._meta.label_lower, field.name) in SECRETS:
            yield field.name, model, field.name
        if field.is_relation and field.related_model is not None:
            hop = field.name  # a reverse relation's name is its query name
            other = field.related_model
            for far in other._meta.get_fields():
                if (other._meta.label_lower, far.name) in SECRETS:
                    yield f"{hop}__{far.name}", other, far.name


def secret_value(holder: type[models.Model], field: str, match: Match, alice: Any) -> Any:
    if holder is Match:
        return getattr(Match.objects.get(pk=match.pk), field)
    if holder is Round:
        return Round.objects.filter(match=match).first().start
    if holder is UndoPoint:
        return UndoPoint.objects.filter(round__match=match).first().state
    return type(alice).objects.get(pk=alice.pk).password


def id_path_to_match(model: type[models.Model]) -> str:
    return {Match: "id", Round: "match__id", UndoPoint: "round__match__id"}.get(model, "id")


def swapped(value: dict[str, Any], seed: int) -> dict[str, Any]:
    out = dict(value)
    if "hands" in out and len(out["hands"]) > 1:
        out["hands"] = [out["hands"][1], out["hands"][0], *out["hands"][2:]]
    if "boneyard" in out:
        out["boneyard"] = list(reversed(out["boneyard"]))
    if "seed" in out:
        out["seed"] = seed
    if isinstance(out.get("start"), dict):
        out["start"] = swapped(out["start"], seed)
    return out


def change_the_secrets(match: Match, alice: Any) -> None:
    m = Match.objects.get(pk=match.pk)
    Match.objects.filter(pk=m.pk).update(
        seed=LIVE_SEED_AFTER,
        state=swapped(m.state, LIVE_SEED_AFTER),
        invite_token="zz" + m.invite_token[2:][::-1],
        watch_token="yy" + m.watch_token[2:][::-1],
    )
    for rnd in Round.objects.filter(match=m):
        Round.objects.filter(pk=rnd.pk).update(start=swapped(rnd.start, LIVE_SEED_AFTER))
    for point in UndoPoint.objects.filter(round__match=m):
        UndoPoint.objects.filter(pk=point.pk).update(state=swapped(point.state, LIVE_SEED_AFTER))
    alice.set_password(PASSWORD_AFTER)
    alice.save()


def answer(client: Client, url: str, params: dict[str, str]) -> tuple[Any, ...]:
    """What a list tells: its status, where it sends the asker, and the rows it found (the
    list's `ChangeList`, which has run its query before the page is drawn)."""
    response = client.get(url + "?" + urlencode(params))
    data = getattr(response, "context_data", None) or {}
    cl = data.get("cl")
    rows = [obj.pk for obj in cl.result_list] if cl is not None else None
    return response.status_code, response.get("Location"), rows


@pytest.fixture
def undrawn(monkeypatch: pytest.MonkeyPatch) -> None:
    """The lists answer without drawing their pages: what is compared (`answer`) is settled
    before a page is drawn, and drawing 1,500 admin pages took most of the test's time."""
    monkeypatch.setattr(SimpleTemplateResponse, "rendered_content", property(lambda self: ""))


@pytest.fixture
def viewer(django_user_model: Any) -> Client:
    """Staff holding every view permission, and nothing else."""
    staff = django_user_model.objects.create_user("viewer", password=PASSWORD_BEFORE, is_staff=True)
    staff.user_permissions.set(Permission.objects.filter(codename__startswith="view_"))
    client = Client()
    client.force_login(staff)
    return client


@pytest.mark.slow
def test_no_admin_list_tells_a_secret_of_a_live_match(
    django_user_model: Any, viewer: Client, undrawn: None
) -> None:
    alice = django_user_model.objects.create_user("alice", password=PASSWORD_BEFORE)
    match = live_match(alice)
    finished = seeded.match_create(
        creator=alice, seats=[spec("me"), spec("computer")], seed=FINISHED_SEED
    )
    Match.objects.filter(pk=finished.pk).update(
        status=Match.Status.FINISHED, finished_at=timezone.now()
    )

    requests: list[tuple[str, dict[str, str]]] = []
    reached: set[tuple[str, str]] = set()
    for model, model_admin in admin.site._registry.items():
        url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
        # every column's sorting
        requests += [(url, {"o": str(i)}) for i in range(len(model_admin.list_display))]
        for path, holder, field in secret_paths(model):
            reached.add((model._meta.label_lower, path))
            value = secret_value(holder, field, match, alice)
            id_path = id_path_to_match(model) if holder is not type(alice) else "id"
            requests += [(url, probe) for probe in probes_for(path, value, match.pk, id_path)]
        # searches for each secret's text
        m = Match.objects.get(pk=match.pk)
        tile = json.dumps(m.state["hands"][1][0])
        for term in (str(LIVE_SEED), m.invite_token, m.watch_token, tile, alice.password[:12]):
            requests.append((url, {"q": term}))
    # every secret was reached from its own admin, and from others through relations
    assert {
        ("games.match", "seed"),
        ("games.match", "state"),
        ("games.round", "start"),
        ("games.undopoint", "state"),
        ("games.seat", "match__seed"),
        ("games.round", "match__state"),
        ("games.undopoint", "round__start"),
        ("auth.user", "password"),
    } <= reached
    assert len(requests) > 250

    print(f"\n{len(requests)} admin requests, asked twice")
    before = [answer(viewer, url, params) for url, params in requests]
    # the lists that answered gave their rows (the comparison below compares rows, not Nones)
    assert sum(status == 200 and bool(rows) for status, _, rows in before) >= 50
    change_the_secrets(match, alice)
    after = [answer(viewer, url, params) for url, params in requests]
    leaks = [
        (url, params, b, a)
        for (url, params), b, a in zip(requests, before, after, strict=True)
        if a != b
    ]
    assert not leaks, leaks[:10]
    # refused, not just lucky: the report's own requests are answered 400
    for url, params in [
        ("/admin/games/match/", {"state__hands__1__icontains": "[0, 4]"}),
        ("/admin/games/match/", {"id": str(match.pk), "seed__lte": "50000000"}),
        ("/admin/games/round/", {"start__hands__0__icontains": "[0, 4]"}),
        ("/admin/games/undopoint/", {"state__hands__0__icontains": "[0, 4]"}),
    ]:
        assert viewer.get(url, params).status_code == 400, (url, params)


def test_the_lists_still_filter_sort_and_search_as_they_offer(
    viewer: Client, django_user_model: Any
) -> None:
    alice = django_user_model.objects.create_user("alice")
    match = seeded.match_create(creator=alice, seats=[spec("me"), spec("computer")], seed=LIVE_SEED)
    offered = [
        ("/admin/games/match/", {"status__exact": "playing"}),
        ("/admin/games/match/", {"listed__exact": "1"}),
        ("/admin/games/match/", {"created_at__year": "2026"}),
        ("/admin/games/match/", {"seat_kind": "computer"}),
        ("/admin/games/match/", {"computers": "yes"}),
        ("/admin/games/match/", {"q": str(match.pk)}),
        ("/admin/games/match/", {"q": "alice"}),
        ("/admin/games/match/", {"o": "0"}),
        ("/admin/games/seat/", {"kind__exact": "computer"}),
        ("/admin/games/round/", {"number__exact": "1"}),
        ("/admin/games/round/", {"q": str(match.pk)}),
        ("/admin/auth/user/", {"is_staff__exact": "1"}),
        ("/admin/auth/user/", {"q": "alice"}),
    ]
    for url, params in offered:
        response = viewer.get(url, params)
        assert response.status_code == 200, (url, params)
        assert response.context["cl"].result_count >= 1, (url, params)
    # the seed column is not sortable: ?o= on it is ignored (the default order)
    listing = viewer.get("/admin/games/match/").content.decode()
    assert 'class="column-seed_shown"' in listing and "sortable column-seed_shown" not in listing
    assert "sortable column-id" in listing
    page = viewer.get(reverse("admin:games_match_change", args=[match.pk])).content.decode()
    assert str(LIVE_SEED) not in page and "hidden until the match is over" in page


def test_every_list_answers_a_filter_it_does_not_take_with_400(viewer: Client) -> None:
    """Every registered admin (those of other apps too: groups, axes' logs) refuses a lookup
    it does not offer, and a filter whose value the database refuses (an invalid regular
    expression on the primary key, which every list may be filtered by), with 400, not
    with a server error."""
    from games.admin.lookups import AllowListedLookups

    assert len(admin.site._registry) > 20
    for model, model_admin in admin.site._registry.items():
        assert isinstance(model_admin, AllowListedLookups), model
        url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
        assert viewer.get(url).status_code == 200, url
        probes: list[dict[str, str]] = [
            {"match__id__exact": "7"},  # the report's, on every list
            {"no_such_field": "1"},
        ]
        if not model._meta.pk.is_relation:  # (a relation takes no regex: Django's ?e=1)
            probes.append({f"{model._meta.pk.name}__regex": "("})
        for params in probes:
            assert viewer.get(url, params).status_code == 400, (url, params)
