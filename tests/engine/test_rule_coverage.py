"""Every rule R1–R22 of rules.md has at least one test named after it."""

from __future__ import annotations

import re
from pathlib import Path

HERE = Path(__file__).resolve().parent


def test_every_rule_r1_to_r22_has_a_named_test() -> None:
    names = [
        m.group(1)
        for f in HERE.glob("test_*.py")
        for m in re.finditer(r"^def (test_\w+)", f.read_text(encoding="utf-8"), re.M)
    ]
    cited = {int(n) for name in names for n in re.findall(r"_r(\d+)(?=_)", f"_{name[5:]}")}
    missing = [f"R{i}" for i in range(1, 23) if i not in cited]
    assert not missing, f"no test named after {missing}"
