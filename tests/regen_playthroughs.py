"""Write the golden playthroughs again (see tests/playthrough.py): run after a deliberate change
of what a view holds, and read the diff before committing it."""

from __future__ import annotations

from golden import lines
from playthrough import CASES, DATA, path_for, steps

if __name__ == "__main__":
    DATA.mkdir(parents=True, exist_ok=True)
    for case in CASES:
        text = "\n".join(lines(steps(*case))) + "\n"
        path_for(case[0]).write_text(text, encoding="utf-8")
        print(f"{path_for(case[0])}: {text.count(chr(10))} lines, {len(text) // 1024} KB")
