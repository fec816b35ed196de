from django.urls import path

from accounts import email_views, guest_views, views

# Unnamespaced on purpose: Django's auth machinery expects these names
# (LOGIN_URL = "login", "password_change_done").
urlpatterns = [
    path("signup/", views.SignUpView.as_view(), name="signup"),
    path("login/", views.LoginView.as_view(), name="login"),
    path("logout/", views.LogoutView.as_view(), name="logout"),
    path("password/", views.PasswordChangeView.as_view(), name="password_change"),
    path("password/done/", views.PasswordChangeDoneView.as_view(), name="password_change_done"),
    # The account's e-mail address (accounts/emails.py)
    path("email/", email_views.email, name="email"),
    path("email/confirm/<str:token>/", email_views.confirm, name="email_confirm"),
    # Guests (accounts/guests.py) and table preferences
    path("keep/", guest_views.keep, name="guest_keep"),
    path("tips/", guest_views.tips, name="tips"),
]
