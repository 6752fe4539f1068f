$a\
  # Subtest: x86_64+audit\r\
    # audit_dummy_dispatch: no audit (Protocol not supported)\r
