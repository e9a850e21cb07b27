"""Model providers behind one streaming interface (``core/provider_api.py``). No Qt here."""
