/^## Results/a\Run `make\nreadme-costs` after a bench.
