"""Terminal play (``flamecraft play``): the screens, the prompt and the game loop."""
