"""What the adapters that run games for people share (the terminal game, the web server):
seat names (``seats``), how far undo may go (``undo``) and the notes the table announces
(``notes``). Imports the core only."""
