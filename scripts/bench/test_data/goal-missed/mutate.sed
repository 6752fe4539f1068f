/^  # Subtest: ia32-compat/,/^  # Subtest: /s/^\(\s*# bench\tindirect_socket\t\)[0-9.]*/\15761.0/
