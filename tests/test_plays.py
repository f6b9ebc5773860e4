"""The record of the invocations that played a run: what the pages say of them, and how the
games on disk no play counts are accounted for."""

from __future__ import annotations

from analysis.plays import cpu_ms_per_game, dirty, played_at, wall_seconds
from pipeline import resume
from rundir import UNRECORDED, Manifest, Play
from rundir.manifest import checksum


def _play(commit: str | None, games: int, finished: bool = True, cpu: float = 1.0) -> Play:
    return Play(commit, "b", "h", "t0", "t1" if finished else None, games, 2.0 if finished else None, cpu)


def test_one_commit_is_named_alone_and_several_each_with_its_games():
    assert played_at([_play("abc", 10), _play("abc", 5)]) == "abc"
    assert played_at([_play("abc", 10), _play("def", 5)]) == "abc (10 games), def (5 games)"
    assert played_at([_play("abc", 10), _play("abc", 5, finished=False)]) == (
        "abc (10 games), abc (5 games, interrupted)"
    )
    assert played_at([_play(None, 10)]) is None  # not from a checkout: the build hash names it
    lost = Play(None, None, UNRECORDED, UNRECORDED, games=7)
    assert played_at([lost, _play("abc", 3)]) == "not recorded (7 games), abc (3 games)"


def test_wall_and_cpu_cover_every_play_and_never_a_partial_one():
    plays = [_play("a", 10, cpu=1.0), _play("a", 30, cpu=3.0)]
    assert wall_seconds(plays) == 4.0
    assert cpu_ms_per_game(plays) == 100.0
    plays.append(_play("a", 60, finished=False, cpu=0.5))
    assert wall_seconds(plays) is None
    assert cpu_ms_per_game(plays) == 100.0  # the interrupted play's CPU is partial: left out
    assert cpu_ms_per_game([_play("a", 10, cpu=0.0)]) is None


def test_a_modified_tree_is_found_in_any_play():
    assert dirty([_play("abc", 1), _play("def-dirty", 1)]) == "def-dirty"
    assert dirty([_play("abc", 1), Play("abc", "0123-dirty", "h", "t")]) == "0123-dirty"
    assert dirty([_play("abc", 1)]) is None


def test_games_no_play_counts_go_to_an_interrupted_play_or_to_one_not_recorded():
    now = Play("c", "b", "h", "t2")
    plays = [_play("a", 10), now]
    resume.settle(plays, 25)
    assert [(p.host, p.games) for p in plays] == [("h", 10), (UNRECORDED, 15), ("h", 0)] and plays[-1] is now
    plays = [_play("a", 10), _play("a", 3, finished=False), now]
    resume.settle(plays, 25)
    assert [p.games for p in plays] == [10, 15, 0]
    plays = [_play("a", 10), now]
    resume.settle(plays, 10)
    assert [p.games for p in plays] == [10, 0]


def test_a_manifest_written_before_plays_were_recorded_reads_its_latest_invocation(write_study, tmp_path):
    from pipeline.study import load_study

    study = load_study(str(write_study(games=4)))
    man = Manifest(study, resume.engine_of(study), {"build": "b1"}, "abc", "h", "t0", "t0", "t1", 9.0,
                   games_played=8, task_cpu_seconds=0.4)  # fmt: skip
    data = man.to_dict()
    del data["plays"]
    data["checksum"] = checksum(data)
    (legacy,) = Manifest.from_dict(data).history()
    assert (legacy.git_commit, legacy.build, legacy.games, legacy.wall_seconds) == ("abc", "b1", 8, 9.0)


def test_a_play_of_the_wrong_shape_is_damage_naming_the_field(write_study):
    import pytest

    from pipeline.study import load_study
    from rundir.manifest import ManifestDamaged

    study = load_study(str(write_study(games=4)))
    data = Manifest(
        study, resume.engine_of(study), {}, "abc", "h", "t0", "t0", plays=[_play("a", 3)]
    ).to_dict()
    for field, value, words in (("games", -1, "plays[0].games"), ("host", 3, "plays[0]: host")):
        bad = {**data, "plays": [{**data["plays"][0], field: value}]}
        bad["checksum"] = checksum(bad)
        with pytest.raises(ManifestDamaged, match=words.replace("[", r"\[").replace("]", r"\]")):
            Manifest.from_dict(bad)
