"""Opens an App2App handoff page in headless Chromium (selenium + chromedriver), saves a
screenshot, presses the named button and prints the URL the browser was redirected to.

Usage: handoff_browser.py ONRAMP_URL BUTTON_LABEL SCREENSHOT_PATH
Prints JSON {title, heading, redirect}.
"""
import json
import sys

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

url, label, screenshot = sys.argv[1:4]
options = webdriver.ChromeOptions()
options.binary_location = "/usr/bin/chromium"
for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=390,844"):
    options.add_argument(flag)
# The partner's redirect host must not leave the machine.
options.add_argument("--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1")
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
try:
    driver.get(url)
    heading = driver.find_element(By.TAG_NAME, "h1").text
    title = driver.title
    driver.save_screenshot(screenshot)
    button = driver.find_element(By.XPATH, f"//button[normalize-space()='{label}']")
    page = driver.current_url
    button.click()
    # Wait for the form post and its 303 to move the browser off the page (slow under load).
    WebDriverWait(driver, 60).until(lambda d: d.current_url != page)
    redirect = driver.execute_script("return window.location.href")
    # On a DNS failure Chromium shows an error page for the URL it tried: that URL is the redirect.
    if redirect.startswith("chrome-error://"):
        history = driver.execute_cdp_cmd("Page.getNavigationHistory", {})
        redirect = history["entries"][history["currentIndex"]]["url"]
    print(json.dumps({"title": title, "heading": heading, "redirect": redirect}))
finally:
    driver.quit()
