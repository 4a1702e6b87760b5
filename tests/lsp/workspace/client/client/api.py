"""HTTP client for the owners service."""


class OwnerClient:
    def __init__(self, base_url):
        self.base_url = base_url

    def fetch_owner(self, owner_id):
        return self._get(f"/owners/{owner_id}")

    def _get(self, path):
        return {"url": self.base_url + path}
