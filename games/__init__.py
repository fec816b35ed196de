"""The Django app for matches: models, services, selectors, consumers, views, admin."""
