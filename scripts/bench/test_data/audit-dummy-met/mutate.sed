$a\
  # Subtest: x86_64+audit\r\
    # bench\tgetppid_audit_dummy\t400.0\t0.0\t-\r\
    # bench\tindirect_getppid_0_audit_dummy\t541.0\t0.0\tgetppid_audit_dummy\r
