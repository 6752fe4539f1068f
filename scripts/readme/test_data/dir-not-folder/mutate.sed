/^## Results/a\Each target is `scripts/targets/<target>/`.
