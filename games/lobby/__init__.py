"""The pages around the table: My matches, the lobby, creating, joining and watching a
match (views.py, the create form in forms.py), one click from the front page to a table
(quick.py), the "How to play" page and the first-time tips (learn.py), and what every page's
template may show of the games (context_processors.py). Routed by games/urls.py.
"""
