"""Third-party browser assets: the pinned htmx release, its CDN address and its Subresource Integrity hash."""

HTMX_VERSION = "2.0.11"
HTMX_SRI = "sha384-2OatzQy1H+Zd/IIrjr1TcuDGqLXeHhbooAyJY1KdQMKnr4LZ22k31GBLdYKHmVjg"
HTMX_CDN_URL = f"https://unpkg.com/htmx.org@{HTMX_VERSION}/dist/htmx.min.js"
HTMX_VENDOR_PATH = f"vendor/htmx-{HTMX_VERSION}.min.js"
HTMX_SOURCES = ("cdn", "vendor")
