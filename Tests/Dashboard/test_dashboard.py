"""The dashboard in a real browser: headless Chromium driven by Selenium against a real
`mpos gateway serve` on a free port with a temporary database.

Run from the package root after `swift build`:
    timeout 300 python3 -m unittest Tests/Dashboard/test_dashboard.py
Screenshots of each page go to .build/dashboard-screenshots/ on every run.
"""

import json
import os
import re
import subprocess
import tempfile
import unittest
import urllib.error
import urllib.parse
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
MPOS = os.path.join(ROOT, ".build", "debug", "mpos")
SHOTS = os.path.join(ROOT, ".build", "dashboard-screenshots")


def credentials(text):
    """The user and password of a credentials block printed by `mpos gateway`."""
    user = re.search(r"^\s+user\s+(\S+)$", text, re.M).group(1)
    password = re.search(r"^\s+password\s+(\S+)$", text, re.M).group(1)
    return user, password


class DashboardInBrowser(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        try:
            cls.start()
        except BaseException:
            cls.tearDownClass()  # unittest skips it when setUpClass fails: stop the gateway here
            raise

    @classmethod
    def start(cls):
        cls.driver = None
        cls.directory = tempfile.TemporaryDirectory()
        db = os.path.join(cls.directory.name, "gateway.sqlite")
        cls.gateway = subprocess.Popen(
            [MPOS, "gateway", "serve", "--port", "0", "--db", db],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        printed = ""
        for line in cls.gateway.stdout:
            printed += line
            match = re.search(r"listening on (http://\S+)", line)
            if match:
                cls.base = match.group(1).rstrip("/")
                break
        else:
            raise RuntimeError("the gateway stopped before listening:\n" + printed)
        cls.user, cls.password = credentials(printed)
        other = subprocess.run(
            [MPOS, "gateway", "merchant", "add", "--db", db, "--name", "Other Shop"],
            check=True, capture_output=True, text=True).stdout
        cls.other_user, cls.other_password = credentials(other)
        # Two cards: each run of the emulated reader starts a card's counter afresh, and the
        # issuer refuses a cryptogram it has seen (for any merchant) as a replay.
        cls.sale_id = cls.sale(cls.user, cls.password, "12.34", "visa-credit")
        cls.other_sale_id = cls.sale(cls.other_user, cls.other_password, "45.67", "mastercard-2series")

        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/bin/chromium"
        for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,1000"):
            options.add_argument(argument)
        cls.driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        os.makedirs(SHOTS, exist_ok=True)

    @classmethod
    def tearDownClass(cls):
        driver = getattr(cls, "driver", None)
        if driver:
            driver.quit()
        gateway = getattr(cls, "gateway", None)
        if gateway is None:
            cls.directory.cleanup()
            return
        cls.gateway.terminate()
        try:
            cls.gateway.wait(timeout=10)
        except subprocess.TimeoutExpired:
            cls.gateway.kill()
        cls.directory.cleanup()

    @classmethod
    def sale(cls, user, password, amount, card):
        journal = os.path.join(cls.directory.name, f"journal-{user}.sqlite")
        out = subprocess.run(
            [MPOS, "sale", "--gateway", cls.base, "--user", user,
             "--amount", amount, "--card", card, "--journal", journal, "--json"],
            env={**os.environ, "MPOS_PASSWORD": password},
            check=True, capture_output=True, text=True, timeout=120).stdout
        result = json.loads(out.strip().splitlines()[-1])
        return result["transactionID"]

    def shot(self, name):
        self.driver.save_screenshot(os.path.join(SHOTS, name + ".png"))

    def log_in(self, user, password):
        self.driver.get(self.base + "/dashboard/login")
        self.driver.find_element(By.NAME, "user").send_keys(user)
        self.driver.find_element(By.NAME, "password").send_keys(password)
        before = self.driver.find_element(By.TAG_NAME, "html")
        self.driver.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
        self.wait_for_new_page(before)

    def wait_for_new_page(self, old_root):
        """Waits until the page the click left has been replaced by the next one."""
        def replaced(driver):
            try:
                old_root.tag_name
                return False
            except Exception:
                return driver.execute_script("return document.readyState") == "complete"
        WebDriverWait(self.driver, 20).until(replaced)

    def turnover_bars(self):
        return [int(bar.get_attribute("data-value"))
                for bar in self.driver.find_elements(By.CSS_SELECTOR, "svg.chart")[0].find_elements(By.CSS_SELECTOR, "rect")]

    def test_the_merchant_day(self):
        self.driver.delete_all_cookies()
        # A wrong password is refused and opens nothing.
        self.log_in(self.user, "not-the-password-1")
        self.assertIn("Invalid user or password.", self.driver.page_source)
        self.shot("login-refused")
        self.assertIsNone(self.driver.get_cookie("mpos_dashboard"))

        self.log_in(self.user, self.password)
        self.assertTrue(self.driver.current_url.endswith("/dashboard/transactions"), self.driver.current_url + self.driver.page_source[-600:])
        self.shot("transactions")

        # Find the sale by its amount through the search form.
        box = self.driver.find_element(By.NAME, "q")
        box.send_keys("12")
        before = self.driver.find_element(By.TAG_NAME, "html")
        box.submit()
        self.wait_for_new_page(before)
        self.assertIn("q=12", self.driver.current_url)
        before = self.driver.find_element(By.TAG_NAME, "html")
        self.driver.find_element(By.LINK_TEXT, self.sale_id).click()
        self.wait_for_new_page(before)
        self.assertIn("12.34 EUR", self.driver.page_source)
        self.shot("transaction")

        self.driver.get(self.base + "/dashboard/statistics")
        before = self.turnover_bars()
        self.assertEqual(before, [1234])
        self.shot("statistics-before")

        # Refund 2.34 from the transaction's page.
        self.driver.get(self.base + "/dashboard/transactions/" + self.sale_id)
        self.driver.find_element(By.NAME, "amount").send_keys("234")
        before = self.driver.find_element(By.TAG_NAME, "html")
        self.driver.find_element(By.XPATH, "//button[text()='Refund']").click()
        self.wait_for_new_page(before)
        self.assertIn("Refunded.", self.driver.page_source)
        self.assertIn("refund", self.driver.find_element(By.ID, "followups").find_element(By.XPATH, "..").text)
        self.shot("transaction-refunded")

        self.driver.get(self.base + "/dashboard/statistics")
        self.assertEqual(self.turnover_bars(), [1000])
        self.shot("statistics-after")

        # Another merchant's transaction answers as an unknown one.
        self.driver.get(self.base + "/dashboard/transactions/" + self.other_sale_id)
        self.assertIn("No transaction " + self.other_sale_id + " for this merchant.", self.driver.page_source)
        self.assertNotIn("45.67", self.driver.page_source)
        self.shot("other-merchant-refused")

        # A form posted without the session's CSRF token is refused with 403.
        cookie = self.driver.get_cookie("mpos_dashboard")["value"]
        request = urllib.request.Request(
            self.base + "/dashboard/transactions/" + self.sale_id + "/void",
            data=urllib.parse.urlencode({"idempotencyKey": "dash-no-csrf"}).encode(),
            headers={"Cookie": "mpos_dashboard=" + cookie}, method="POST")
        with self.assertRaises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=10)
        self.assertEqual(refused.exception.code, 403)
        self.driver.get(self.base + "/dashboard/transactions/" + self.sale_id)
        self.assertNotIn("Voided", self.driver.page_source)

        for name in ("readers", "offline", "webhooks"):
            self.driver.get(self.base + "/dashboard/" + name)
            self.assertEqual(self.driver.find_element(By.TAG_NAME, "h1").text,
                             {"readers": "Readers", "offline": "Offline forwards", "webhooks": "Webhook deliveries"}[name])
            self.shot(name)

        # The pages fit a phone's width.
        self.driver.set_window_size(390, 844)
        self.driver.get(self.base + "/dashboard/transactions")
        width = self.driver.execute_script("return document.documentElement.scrollWidth")
        self.assertLessEqual(width, 390)
        self.shot("transactions-phone")
        self.driver.set_window_size(1280, 1000)

    def test_mpos_dashboard_prints_a_link_that_logs_in_once(self):
        self.driver.delete_all_cookies()
        link = subprocess.run(
            [MPOS, "dashboard", "--gateway", self.base, "--user", self.user],
            env={**os.environ, "MPOS_PASSWORD": self.password},
            check=True, capture_output=True, text=True, timeout=60).stdout.strip()
        self.assertTrue(link.startswith(self.base + "/dashboard/login/link?token=dl_"), link)
        self.driver.get(link)
        self.assertTrue(self.driver.current_url.endswith("/dashboard/transactions"), self.driver.current_url)
        self.assertIn(self.sale_id, self.driver.page_source)
        self.driver.delete_all_cookies()
        self.driver.get(link)
        self.assertIn("This login link is unknown, expired or already used.", self.driver.page_source)
        self.shot("login-link-used")


if __name__ == "__main__":
    unittest.main()
