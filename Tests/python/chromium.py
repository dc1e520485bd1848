"""Headless Chromium (Debian's chromium + chromium-driver) for the page checks, set up one way."""
from selenium import webdriver
from selenium.webdriver.chrome.service import Service


def start(window="390,844"):
    """A headless Chromium driver with a phone-sized window. Names other than 127.0.0.1 do not
    resolve, so a partner's redirect host never leaves the machine."""
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 f"--window-size={window}", "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"):
        options.add_argument(flag)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def landed_url(driver):
    """The URL the browser navigated to. On a DNS failure Chromium shows an error page for the URL it
    tried: that URL is the redirect."""
    url = driver.execute_script("return window.location.href")
    if url.startswith("chrome-error://"):
        history = driver.execute_cdp_cmd("Page.getNavigationHistory", {})
        url = history["entries"][history["currentIndex"]]["url"]
    return url
