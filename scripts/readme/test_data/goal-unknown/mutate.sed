/^## Results/a\Run `make readme-costs` after a bench.
