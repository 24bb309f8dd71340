# The course's Jupyter settings that are Python objects; the others are in
# jupyter_server_config.json beside this file (Jupyter reads both). See toolkit/lab/__init__.py.
from toolkit.lab import voila_prelaunch

# App mode shuts its kernel down when the page closes: Voila's page posts the _xsrf cookie's
# token to /voila/api/shutdown/<kernel>; the hook makes sure the page set that cookie.
c.VoilaConfiguration.prelaunch_hook = voila_prelaunch  # noqa: F821 - `c` is Jupyter's config

# App mode's index lists the lessons by title, in course order (data/voila/templates/money-games/tree.html).
from toolkit.lab import page_titles  # noqa: E402

c.ServerApp.jinja_template_vars = {"money_games_titles": page_titles()}  # noqa: F821
