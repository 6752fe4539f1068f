s/^| 2\/12 seccomp |/| 2\/13 seccomp |/
