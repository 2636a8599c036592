"""Tests of the web app: protocol, store, restarts (server side) and real-browser pages."""
