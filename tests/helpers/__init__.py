"""What several test modules share: apps and clients (``web``), studies, games, pages, published positions."""
