"""Buys on the hosted onramp page in headless Chromium (selenium + chromedriver): picks the
asset, types an amount, previews, saves screenshots of both steps, confirms, and prints the URL
the browser was redirected to.

Usage: hosted_onramp_browser.py ONRAMP_URL CHOICE_LABEL AMOUNT SCREENSHOT_PREFIX
Prints JSON {selectTitle, previewHeading, redirect}.
"""
import json
import sys

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

url, choice, amount, screenshots = sys.argv[1:5]
options = webdriver.ChromeOptions()
options.binary_location = "/usr/bin/chromium"
for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=390,844"):
    options.add_argument(flag)
# The partner's redirect host must not leave the machine.
options.add_argument("--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1")
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def click_and_wait(label):
    page = driver.current_url
    heading = driver.find_element(By.TAG_NAME, "h1").text
    driver.find_element(By.XPATH, f"//button[normalize-space()='{label}']").click()
    # Posts answer on the same URL: wait until the page itself changed (slow under load).
    WebDriverWait(driver, 60).until(
        lambda d: d.current_url != page or d.find_element(By.TAG_NAME, "h1").text != heading)


try:
    driver.get(url)
    select_title = driver.title
    Select(driver.find_element(By.ID, "choice")).select_by_visible_text(choice)
    field = driver.find_element(By.ID, "amount")
    field.clear()
    field.send_keys(amount)
    driver.save_screenshot(f"{screenshots}-select.png")
    click_and_wait("Preview purchase")
    preview_heading = driver.find_element(By.TAG_NAME, "h1").text
    driver.save_screenshot(f"{screenshots}-preview.png")
    page = driver.current_url
    driver.find_element(By.XPATH, "//button[normalize-space()='Confirm']").click()
    WebDriverWait(driver, 60).until(lambda d: d.current_url != page)
    redirect = driver.execute_script("return window.location.href")
    # On a DNS failure Chromium shows an error page for the URL it tried: that URL is the redirect.
    if redirect.startswith("chrome-error://"):
        history = driver.execute_cdp_cmd("Page.getNavigationHistory", {})
        redirect = history["entries"][history["currentIndex"]]["url"]
    print(json.dumps({"selectTitle": select_title, "previewHeading": preview_heading, "redirect": redirect}))
finally:
    driver.quit()
