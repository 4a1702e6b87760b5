""".NET test code by path (:func:`analysis.testcode.is_test_path`): a test project's folder (``Catalog.FunctionalTests``,
``Ordering.UnitTests``, ``Api.Tests``, ``Api.Test``) and ``*Tests.cs`` / ``*Test.cs`` files; not a project or file
whose name merely ends in lower-case ``test`` (``Api.Contest``, ``my.latest``, ``Contest.cs``)."""

from __future__ import annotations

from analysis.testcode import is_test_path


def test_dotnet_test_projects_and_files_are_test_code() -> None:
    paths = {
        "src/Services/Catalog/Catalog.FunctionalTests/CatalogScenarios.cs": True,  # eShopOnContainers
        "src/Services/Ordering/Ordering.UnitTests/Application/OrdersWebApiTest.cs": True,
        "src/Api.Tests/ItemsSpecs.cs": True,
        "src/Api.Test/Items.cs": True,
        "src/App/OrderControllerTests.cs": True,
        "src/App/OrderControllerTest.cs": True,
        "src/Services/Catalog/Catalog.API/Controllers/CatalogController.cs": False,
        "src/Api.Contest/Items.cs": False,
        "lib/my.latest/index.js": False,
        "src/App/Contest.cs": False,
        "src/App/Latest.cs": False,
    }
    assert {p: is_test_path(p) for p in paths} == paths
