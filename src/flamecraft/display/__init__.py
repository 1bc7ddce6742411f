"""Words for people, shared by the terminal, the web server and the command line: the message
catalogues (``i18n``), card texts in the reader's language (``localized``), wrapping to a
terminal's width (``wrap``), the text drawing of a table (``render``) and the card pages made
from the data (``carddocs``). Imports the core only."""
