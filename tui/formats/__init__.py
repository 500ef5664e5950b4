"""What the renderers of every view share, per output format: text columns and decimals, Markdown
and LaTeX escaping and tables, JSON numbers and records. No view is named here (each view's
renderers are in its folder, ``tui/views/<name>/``)."""
