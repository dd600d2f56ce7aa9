"""Write the golden protocol transcripts again (see tests/transcripts.py): run after a
deliberate change of what the server sends, and read the diff before committing it."""

from __future__ import annotations

from golden import lines
from transcripts import CASES, DATA, path_for, transcript

if __name__ == "__main__":
    DATA.mkdir(parents=True, exist_ok=True)
    for players in CASES:
        text = "\n".join(lines(transcript(players))) + "\n"
        path_for(players).write_text(text, encoding="utf-8")
        print(f"{path_for(players)}: {text.count(chr(10))} messages, {len(text) // 1024} KB")
