/^  # Subtest: x86_64/,/^  # Subtest: /s/^\(\s*# bench\tindirect_blacklisted\t\)[0-9.]*/\1248.0/
