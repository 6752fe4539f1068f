/^# harness: cpu /d
