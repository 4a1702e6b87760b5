from client.api import OwnerClient


def render(owner_id):
    client = OwnerClient("http://localhost")
    title = "所有者 😀 " + str(client.fetch_owner(owner_id))
    return title


def main():
    print(render(1))


def banner():
    return "owners"


TITLE = banner()
