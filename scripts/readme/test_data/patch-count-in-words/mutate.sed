/^## Editing the series/a\The eight patches of the series apply in order.
