/^## Results/a\The verdict is `scripts/parse-console.py`'s.
