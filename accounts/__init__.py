"""Accounts: sign up, log in, log out and password change on Django's auth."""
